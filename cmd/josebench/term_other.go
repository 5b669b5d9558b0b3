//go:build !linux

package main

import "os"

// ttyColumns returns 0: the terminal's width is not read off Linux (the
// COLUMNS variable or 80 columns are assumed, see terminalWidth).
func ttyColumns(*os.File) int { return 0 }
