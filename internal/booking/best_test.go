package booking_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"boxoffice/internal/booking"
)

// hall is rows of seats from a picture: one string a row, '.' a free
// seat, 'x' a taken one, 'w' a free wheelchair space, 'c' a free companion
// seat, ' ' an aisle.
func hall(rows ...string) ([]booking.Seat, func(booking.Seat) bool) {
	var seats []booking.Seat
	taken := map[string]bool{}
	for r, line := range rows {
		n := 0
		for c, ch := range line {
			if ch == ' ' {
				continue
			}
			n++
			s := booking.Seat{ID: string(rune('A'+r)) + strconv.Itoa(n), Row: string(rune('A' + r)), Number: n,
				GridRow: r, GridCol: c, Category: "Classic", Kind: booking.KindStandard}
			switch ch {
			case 'x':
				taken[s.ID] = true
			case 'w':
				s.Kind = booking.KindWheelchair
			case 'c':
				s.Kind = booking.KindCompanion
			}
			seats = append(seats, s)
		}
	}
	return seats, func(s booking.Seat) bool { return !taken[s.ID] }
}

func TestBestBlock(t *testing.T) {
	tests := []struct {
		name string
		rows []string
		req  booking.BestRequest
		want []string // nil: no block
	}{
		{
			name: "the centre of row ⌊2R/3⌋",
			// R=3: best row index 2 (C).
			rows: []string{"........", "........", "........"},
			req:  booking.BestRequest{Party: 2},
			want: []string{"C4", "C5"},
		},
		{
			name: "ties go left",
			rows: []string{".......", ".......", "......."},
			req:  booking.BestRequest{Party: 2},
			want: []string{"C3", "C4"},
		},
		{
			name: "no aisle inside a block",
			rows: []string{"...   ...", "...   ...", "...   ..."},
			req:  booking.BestRequest{Party: 3},
			want: []string{"C1", "C2", "C3"},
		},
		{
			name: "a block that strands no seat beats a nearer one that does",
			// C: the centre pair C3-C4 would leave C2 alone between C1
			// (taken) and it, C4-C5 would leave C6 at the row's end.
			rows: []string{"......", "......", "x.....", "......"},
			req:  booking.BestRequest{Party: 2},
			want: []string{"C2", "C3"},
		},
		{
			name: "nothing fits",
			rows: []string{"x.x.x", ".x.x."},
			req:  booking.BestRequest{Party: 2},
		},
		{
			name: "companion seats only when nothing else fits",
			rows: []string{"....", "wcc.", "xx.."},
			req:  booking.BestRequest{Party: 2},
			want: []string{"C3", "C4"},
		},
		{
			name: "wheelchair with its companions",
			rows: []string{"....", "wcc.", "...."},
			req:  booking.BestRequest{Party: 3, Wheelchair: true},
			want: []string{"B1", "B2", "B3"},
		},
		{
			name: "wheelchair alone",
			rows: []string{"....", "c.cw", "...."},
			req:  booking.BestRequest{Party: 1, Wheelchair: true},
			want: []string{"B4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seats, free := hall(tt.rows...)
			got, ok := booking.BestBlock(seats, tt.req, free)
			if ok != (tt.want != nil) || (ok && !equal(got.IDs(), tt.want)) {
				t.Errorf("BestBlock = %v, %v; want %v", got.IDs(), ok, tt.want)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBestBlockProperties: on random halls, the block is free, adjacent,
// in one row without an aisle, of the size and category asked for; and no
// other block is better by the rule.
func TestBestBlockProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 400 {
		var seats []booking.Seat
		taken := map[string]bool{}
		rows := 1 + rng.IntN(8)
		for r := range rows {
			col, n := 0, 0
			for range 2 + rng.IntN(14) {
				if rng.IntN(6) == 0 {
					col++ // an aisle
				}
				n++
				s := booking.Seat{ID: string(rune('A'+r)) + strconv.Itoa(n), GridRow: r, GridCol: col, Category: []string{"Classic", "Prime"}[rng.IntN(2)], Kind: booking.KindStandard}
				switch rng.IntN(12) {
				case 0:
					s.Kind = booking.KindWheelchair
				case 1, 2:
					s.Kind = booking.KindCompanion
				}
				taken[s.ID] = rng.IntN(3) == 0
				seats = append(seats, s)
				col++
			}
		}
		free := func(s booking.Seat) bool { return !taken[s.ID] }
		req := booking.BestRequest{Party: 1 + rng.IntN(5)}
		if rng.IntN(3) == 0 {
			req.Category = "Prime"
		}
		req.Wheelchair = rng.IntN(6) == 0
		got, ok := booking.BestBlock(seats, req, free)
		all := booking.AllBlocks(seats, req, free)
		if ok != (len(all) > 0) {
			t.Fatalf("round %d: BestBlock ok %v, but %d blocks exist", round, ok, len(all))
		}
		if !ok {
			continue
		}
		if len(got) != req.Party {
			t.Fatalf("round %d: %d seats, want %d", round, len(got), req.Party)
		}
		for i, s := range got {
			if !free(s) || (req.Category != "" && s.Category != req.Category) {
				t.Fatalf("round %d: %s is taken or of another category", round, s.ID)
			}
			if i > 0 && (s.GridRow != got[0].GridRow || s.GridCol != got[i-1].GridCol+1) {
				t.Fatalf("round %d: %v is not one run of adjacent seats", round, got.IDs())
			}
		}
		for _, other := range all {
			if booking.BlockBetter(seats, req, free, other, got) {
				t.Fatalf("round %d: %v is better than the chosen %v", round, other.IDs(), got.IDs())
			}
		}
	}
}
