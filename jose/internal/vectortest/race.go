//go:build race

package vectortest

// RaceEnabled reports whether the race detector is on: sync.Pool then
// drops items at random, so allocation counts mean nothing.
const RaceEnabled = true
