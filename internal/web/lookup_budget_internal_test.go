package web

import (
	"testing"
	"time"
)

// TestLookupBudget: a view's lookups stop at their number, and at their
// time however many are left; a booking that needed no lookup spends
// nothing.
func TestLookupBudget(t *testing.T) {
	l := lookupBudget{left: 2, until: time.Now().Add(time.Hour)}
	l.spent(false)
	l.spent(true)
	if !l.allows() {
		t.Fatal("one lookup left, and time: not allowed")
	}
	l.spent(true)
	if l.allows() {
		t.Error("no lookup left: allowed")
	}
	late := lookupBudget{left: 5, until: time.Now().Add(-time.Millisecond)}
	if late.allows() {
		t.Error("past its time: allowed")
	}
}
