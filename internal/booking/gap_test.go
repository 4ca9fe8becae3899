package booking_test

import (
	"errors"
	"strings"
	"testing"

	"boxoffice/internal/booking"
)

func TestCheckGaps(t *testing.T) {
	tests := []struct {
		name       string
		rows       []string
		hold       []string
		gap        string // "" allowed
		suggestion string
	}{
		{"next to a taken seat", []string{"x....."}, []string{"A3", "A4"}, "A2", "A2,A3"},
		{"at the row's end", []string{"......"}, []string{"A2", "A3"}, "A1", "A1,A2"},
		{"before an aisle", []string{"..... .."}, []string{"A3", "A4"}, "A5", "A4,A5"},
		{"a block of three has no better pair: allowed", []string{"...  ..."}, []string{"A1", "A2"}, "", ""},
		{"leaving two is fine", []string{"x......"}, []string{"A4", "A5"}, "", ""},
		{"filling a row exactly", []string{"x..x"}, []string{"A2", "A3"}, "", ""},
		{"a gap that was there before is not this hold's", []string{"x.x..."}, []string{"A4", "A5", "A6"}, "", ""},
		{"no better choice: allowed", []string{"x...x"}, []string{"A2", "A3"}, "", ""},
		{"one seat between two holds of the party's", []string{"......"}, []string{"A1", "A3"}, "A2", "A1,A2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seats, free := hall(tt.rows...)
			err := booking.CheckGaps(seats, tt.hold, free)
			var ge *booking.GapError
			switch {
			case tt.gap == "" && err != nil:
				t.Errorf("CheckGaps = %v, want allowed", err)
			case tt.gap != "" && (!errors.As(err, &ge) || ge.Seat != tt.gap || strings.Join(ge.Suggestion, ",") != tt.suggestion):
				t.Errorf("CheckGaps = %v (%+v), want the gap at %s and suggestion %s", err, ge, tt.gap, tt.suggestion)
			case tt.gap != "" && booking.ErrorCode(err) != booking.EINVALID:
				t.Errorf("a gap's code is %q, want invalid (422)", booking.ErrorCode(err))
			}
		})
	}
}
