package booking

import (
	"fmt"
	"strings"
)

// GapError refuses a hold that would leave Seat alone: one free seat
// between two taken seats, or between a taken seat and an aisle or the
// row's end (SEAT_GAPS=refuse, SPEC §13). Suggestion is the nearest
// selection of as many seats that leaves none.
type GapError struct {
	Seat       string
	Suggestion []string
}

func (e *GapError) Error() string {
	return fmt.Sprintf("Seat %s would be left on its own, which nobody could book. Please choose %s instead, or other seats.",
		e.Seat, strings.Join(e.Suggestion, ", "))
}

// Unwrap makes a GapError an EINVALID *Error for ErrorCode and ErrorMessage.
func (e *GapError) Unwrap() error { return &Error{Code: EINVALID, Message: e.Error()} }

// CheckGaps says whether holding the seats ids of seats (a show's, or at
// least every row that ids touch) leaves a seat alone that was not alone
// before. free says which seats would be free without the hold: available
// by the seat rule, the holder's previous hold's, and the hold's own. A
// hold that would is
// refused with the nearest selection that leaves none, unless none
// exists: then it is allowed, as there is no better choice.
func CheckGaps(seats []Seat, ids []string, free func(Seat) bool) error {
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	segs := touched(Segments(seats), want)
	gap := firstGap(segs, want, free)
	if gap == "" {
		return nil
	}
	if s := nearestWithoutGap(segs, want, free); s != nil {
		return &GapError{Seat: gap, Suggestion: s}
	}
	return nil
}

// touched are the segments with a seat of want.
func touched(segs []Block, want map[string]bool) []Block {
	var out []Block
	for _, seg := range segs {
		for _, s := range seg {
			if want[s.ID] {
				out = append(out, seg)
				break
			}
		}
	}
	return out
}

// firstGap is a seat that taking want leaves alone, next to a seat of
// want: "" when there is none.
func firstGap(segs []Block, want map[string]bool, free func(Seat) bool) string {
	for _, seg := range segs {
		open := func(i int) bool { return i >= 0 && i < len(seg) && !want[seg[i].ID] && free(seg[i]) }
		for i, s := range seg {
			if !open(i) || open(i-1) || open(i+1) {
				continue
			}
			if (i > 0 && want[seg[i-1].ID]) || (i+1 < len(seg) && want[seg[i+1].ID]) {
				return s.ID
			}
		}
	}
	return ""
}

// nearestWithoutGap moves one run of want's seats (adjacent seats of one
// segment) along its segment, by as few seats as possible (to the left
// first), to where the whole selection leaves no seat alone; nil when no
// move does.
func nearestWithoutGap(segs []Block, want map[string]bool, free func(Seat) bool) []string {
	type run struct {
		seg        Block
		start, end int // seg[start:end]
	}
	var runs []run
	for _, seg := range segs {
		for i := 0; i < len(seg); {
			if !want[seg[i].ID] {
				i++
				continue
			}
			j := i
			for j < len(seg) && want[seg[j].ID] {
				j++
			}
			runs = append(runs, run{seg, i, j})
			i = j
		}
	}
	for d := 1; ; d++ {
		moved := false
		for _, off := range []int{-d, d} {
			for _, r := range runs {
				start, end := r.start+off, r.end+off
				if start < 0 || end > len(r.seg) {
					continue
				}
				moved = true
				next := make(map[string]bool, len(want))
				for id := range want {
					next[id] = true
				}
				for _, s := range r.seg[r.start:r.end] {
					delete(next, s.ID)
				}
				ok := true
				for _, s := range r.seg[start:end] {
					if next[s.ID] || (!want[s.ID] && !free(s)) {
						ok = false
						break
					}
					next[s.ID] = true
				}
				if ok && firstGap(segs, next, free) == "" {
					return selectionOrder(segs, next)
				}
			}
		}
		if !moved {
			return nil
		}
	}
}

// selectionOrder lists the ids of sel in map order.
func selectionOrder(segs []Block, sel map[string]bool) []string {
	var ids []string
	for _, seg := range segs {
		for _, s := range seg {
			if sel[s.ID] {
				ids = append(ids, s.ID)
			}
		}
	}
	return ids
}
