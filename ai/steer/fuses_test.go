//go:build (amd64 && (amd64.v3 || amd64.v4)) || arm64 || ppc64 || ppc64le || riscv64 || s390x || loong64

package steer

// stdFuses reports whether the standard library's math functions (Sincos and
// others, built for this target like the rest) fuse multiply-adds.
const stdFuses = true
