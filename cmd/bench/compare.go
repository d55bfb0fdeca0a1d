package main

import "io"

func (rf *reportFlags) runCompare(cfg crowdConfig, asJSON bool, stdout, stderr io.Writer) int { return 0 }
