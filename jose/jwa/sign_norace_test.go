//go:build !race

package jwa

// sigRaceEnabled reports whether the race detector is on: sync.Pool then
// drops items at random, so allocation counts mean nothing.
const sigRaceEnabled = false
