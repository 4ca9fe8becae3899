package web_test

import (
	"net/http"
	"regexp"
	"testing"
	"time"
)

// serverNow matches the attribute that differs between two drawings of the
// same seats: the server's clock.
var serverNow = regexp.MustCompile(`data-server-now="[^"]*"`)

// TestGridCacheFollowsTheSeats: the seat grid kept for viewers without a
// hold is the grid drawn afresh, and changes with every seat: a hold made
// in another process, a lock that lapses, a booking. A viewer with a hold
// sees their own seats as theirs, and what it sees is kept for nobody.
// The viewers here have no session: the map they poll may be up to a
// second old (SPEC §18), so the clock moves on a second after a change.
func TestGridCacheFollowsTheSeats(t *testing.T) {
	a := newApp(t)
	other := a.sibling() // another process on the same file, with a cache of its own
	viewer := a.client()
	path := "/shows/" + testShowID + "/seats"

	fragment := func(c *client) string {
		t.Helper()
		res := c.get(path)
		wantStatus(t, res, http.StatusOK)
		return serverNow.ReplaceAllString(res.body, "")
	}
	state := func(c *client, seat string) string {
		t.Helper()
		res := c.get(path)
		wantStatus(t, res, http.StatusOK)
		return seatStates(res.doc(t))[seat]
	}

	first, second := fragment(viewer), fragment(viewer)
	if first != second {
		t.Fatal("the same seats drew two different fragments")
	}
	if got := fragment(a.client()); got != first {
		t.Error("another viewer without a hold got a different fragment for the same seats")
	}

	holder := other.client()
	holder.mustHold("B2")
	a.clock.Advance(time.Second) // a watcher's map may be a second old (SPEC §18)
	if got := state(viewer, "B2"); got != "held" {
		t.Errorf("after a hold in another process, B2 is %q, want held", got)
	}
	if got := state(holder, "B2"); got != "mine" {
		t.Errorf("the holder sees B2 %q, want mine", got)
	}
	if got := state(viewer, "B2"); got != "held" {
		t.Errorf("after the holder's view, B2 is %q to others, want held", got)
	}
	if got := state(other.client(), "B2"); got != "held" {
		t.Errorf("in the holder's process, B2 is %q to others, want held", got)
	}

	a.clock.Advance(16 * time.Minute) // the lock lapses; nothing is written
	if got := state(viewer, "B2"); got != "available" {
		t.Errorf("after the lock lapsed, B2 is %q, want available", got)
	}

	a.book("C1")
	a.clock.Advance(time.Second)
	if got := state(viewer, "C1"); got != "booked" {
		t.Errorf("after a booking, C1 is %q, want booked", got)
	}

	// The page draws the same grid as the fragment.
	res := viewer.get("/shows/" + testShowID)
	wantStatus(t, res, http.StatusOK)
	if st := seatStates(res.doc(t)); st["C1"] != "booked" || st["B2"] != "available" {
		t.Errorf("the page shows C1 %q and B2 %q, want booked and available", st["C1"], st["B2"])
	}
}
