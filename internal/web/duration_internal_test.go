package web

import (
	"testing"
	"time"
)

// TestDurationText: durations as people read them.
func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		15 * time.Minute:        "15 minutes",
		time.Minute:             "1 minute",
		90 * time.Minute:        "1 hour 30 minutes",
		2 * time.Hour:           "2 hours",
		45 * time.Second:        "45 seconds",
		time.Second:             "1 second",
		61 * time.Second:        "1 minute 1 second",
		24 * time.Hour:          "24 hours",
		time.Hour + time.Second: "1 hour 1 second",
		1500 * time.Millisecond: "2 seconds",
		0:                       "0 seconds",
	} {
		if got := durationText(d); got != want {
			t.Errorf("DurationText(%v) = %q, want %q", d, got, want)
		}
	}
}
