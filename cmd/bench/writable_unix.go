//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "syscall"

// canCheckWritable reports whether writable asks the system (access(2)).
const canCheckWritable = true

// writable returns nil if the process may write path (a directory: create files
// in it), by access(2) with W_OK, which creates nothing; else the system's error
// (permission denied, read-only file system).
func writable(path string) error {
	const wOK = 2 // W_OK of <unistd.h>
	return syscall.Access(path, wOK)
}
