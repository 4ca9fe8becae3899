package testkit

import (
	"fmt"
	"testing"
	"time"
)

// Eventually asks cond again and again, a few milliseconds apart, until it
// is true, and fails the test, saying what it waited for (format and args,
// as fmt.Sprintf), if within passes first. It is how a test waits for what
// another goroutine or process does: a sleep long enough on this machine
// is too short on a busy one. Call it from the test's goroutine.
func Eventually(t testing.TB, within time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, fmt.Sprintf(format, args...))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
