//go:build race

package core

// raceEnabled is whether the test binary runs under the race detector,
// whose sync.Pool drops items at random.
const raceEnabled = true
