//go:build race

package storetest

// raceDetector reports whether the race detector is on. It makes an
// embedded database written in Go (modernc.org/sqlite) some ten times
// slower, and the tests that only ask many questions learn nothing more
// from it, so they ask fewer then (see sized).
const raceDetector = true
