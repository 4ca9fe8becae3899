package storetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

var gapTests = []test{
	{"RefusedInTheStep", testGapRefusedInTheStep},
}

// strict is at(d) with the single-gap rule on, as SEAT_GAPS=refuse has it.
func strict(d time.Duration) booking.Moment {
	m := at(d)
	m.AllowGaps = false
	return m
}

// testGapRefusedInTheStep: the store step checks single gaps on the seats
// as they are in its transaction: a neighbour taken by another session a
// moment ago counts; the previous hold's seats count as free; a conflict
// is reported before a gap; a hold with no better choice passes.
func testGapRefusedInTheStep(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 12, later) // A1–A6 | A7–A12
	hold(t, s, show.ID, "other", strict(0), "A1")
	// A3-A4 would leave A2 alone between A1 (just taken) and A3.
	h := newHold(show.ID, "o1", strict(time.Second), "A3", "A4")
	err := s.HoldSeats(t.Context(), h, strict(time.Second))
	var ge *booking.GapError
	if !errors.As(err, &ge) || ge.Seat != "A2" || strings.Join(ge.Suggestion, ",") != "A2,A3" {
		t.Fatalf("a hold leaving A2 alone: %v (%+v), want a gap at A2 and A2,A3 suggested", err, ge)
	}
	if got := availableIDs(t, s, show.ID, strict(time.Second)); len(got) != 11 {
		t.Errorf("the refused hold left %d seats available, want 11", len(got))
	}
	// The suggestion is accepted.
	first := hold(t, s, show.ID, "o1", strict(2*time.Second), "A2", "A3")
	// Moving along by one would leave A2 alone again, since the previous
	// hold's seats count as free: A3-A4 strands A2 between A1 and A3.
	err = s.HoldSeats(t.Context(), newHold(show.ID, "o1", strict(3*time.Second), "A3", "A4"), strict(3*time.Second))
	if !errors.As(err, &ge) || ge.Seat != "A2" {
		t.Errorf("replacing A2-A3 by A3-A4: %v, want the gap at A2", err)
	}
	if got := getHold(t, s, first.ID); got.State != booking.HoldActive {
		t.Errorf("the refused replacement changed the first hold: %s", got.State)
	}
	// A conflict before a gap: A3 is taken, and A5 alone would strand A4
	// or A6.
	err = s.HoldSeats(t.Context(), newHold(show.ID, "o2", strict(4*time.Second), "A3", "A5"), strict(4*time.Second))
	var ue *booking.UnavailableError
	if !errors.As(err, &ue) {
		t.Errorf("a hold of a taken seat that would also leave a gap: %v, want the conflict first", err)
	}
	// A10-A11 would leave A12 alone at the row's end; A11-A12 would not.
	hold(t, s, show.ID, "x", strict(5*time.Second), "A7")
	err = s.HoldSeats(t.Context(), newHold(show.ID, "o3", strict(6*time.Second), "A10", "A11"), strict(6*time.Second))
	if !errors.As(err, &ge) || ge.Seat != "A12" {
		t.Errorf("A10-A11 leaving A12 at the row's end: %v, want the gap at A12", err)
	}
	// SEAT_GAPS=allow: the same hold passes.
	if err := s.HoldSeats(t.Context(), newHold(show.ID, "o3", at(7*time.Second), "A10", "A11"), at(7*time.Second)); err != nil {
		t.Errorf("with gaps allowed: %v", err)
	}
}

// testRaceGaps: two sessions hold seats of one row at once, each choice
// fine alone and together leaving a seat alone (A1-A2 and A4-A5 strand
// A3); however they interleave, one of them is refused.
func testRaceGaps(t *testing.T, s store) {
	for round := range 10 {
		show, _ := newShow(t, s, 1, 12, later) // A1–A6 | A7–A12
		m := strict(time.Duration(round) * time.Second)
		errs := make([]error, 2)
		concurrently(2, func(i int) {
			seats := [][]string{{"A1", "A2"}, {"A4", "A5"}}[i]
			errs[i] = s.HoldSeats(t.Context(), newHold(show.ID, fmt.Sprintf("o%d", i), m, seats...), m)
		})
		won := 0
		for i, err := range errs {
			var ge *booking.GapError
			switch {
			case err == nil:
				won++
			case errors.As(err, &ge):
			default:
				t.Fatalf("round %d, session %d: %v", round, i, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d of the two holds stood (errors %v); want exactly one, the other refused for A3", round, won, errs)
		}
	}
}
