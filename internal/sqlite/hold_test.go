package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestSeatRuleBoundary checks the SQL rule against the Go rule at the exact
// nanosecond the lock lapses, in every query that uses it.
func TestSeatRuleBoundary(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 1, 3)
	if err := s.HoldSeats(ctx, hold("s1", "o1", "A1"), at(0)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    booking.Moment
		free bool
	}{
		{"one ns before the lock lapses", at(ttl - 1), false},
		{"at the cutoff", at(ttl), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seats, err := s.Seats(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if got := seats[0].AvailableAt(tc.m); got != tc.free {
				t.Fatalf("Go rule: A1 available = %v, want %v", got, tc.free)
			}
			ids, err := s.AvailableSeatIDs(ctx, "s1", tc.m)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(ids) == 3; got != tc.free {
				t.Errorf("AvailableSeatIDs = %v", ids)
			}
			o, err := s.Occupancy(ctx, "s1", tc.m)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(booking.CountOccupancy(seats, tc.m), o); diff != "" {
				t.Errorf("Occupancy (-Go +SQL):\n%s", diff)
			}
			up, err := s.UpcomingShows(ctx, t0, 10, tc.m)
			if err != nil || len(up) != 1 {
				t.Fatalf("UpcomingShows = %v, %v", up, err)
			}
			if want := len(ids); up[0].SeatsLeft != want {
				t.Errorf("UpcomingShows seats left = %d, want %d", up[0].SeatsLeft, want)
			}
			err = s.HoldSeats(ctx, hold("s1", "o2", "A1"), tc.m)
			if (err == nil) != tc.free {
				t.Errorf("HoldSeats(A1) = %v, want success %v", err, tc.free)
			}
		})
	}
}

// TestHoldManySeats goes past the prepared statements (maxPreparedSeats).
func TestHoldManySeats(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 2, 20)
	var ids []string
	for c := 1; c <= 20; c++ {
		ids = append(ids, fmt.Sprintf("A%d", c))
	}
	h := hold("s1", "o1", ids...)
	if err := s.HoldSeats(ctx, h, at(0)); err != nil {
		t.Fatalf("HoldSeats of 20 seats: %v", err)
	}
	h, err := s.Hold(ctx, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if h.Amount != 20*100 || h.Currency != "INR" {
		t.Errorf("hold amount = %d %s, want 2000 INR", h.Amount, h.Currency)
	}
	err = s.HoldSeats(ctx, hold("s1", "o2", append(ids[15:], "B1")...), at(time.Minute))
	if diff := cmp.Diff([]string{"A16", "A17", "A18", "A19", "A20"}, booking.UnavailableSeats(err)); diff != "" {
		t.Errorf("conflict of a 6-seat hold (-want +got):\n%s", diff)
	}
}

// TestHoldErrors checks the translation of failed holds.
func TestHoldErrors(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 1, 3)
	unknownSeat := hold("s1", "o1", "A1", "Z9")
	for _, tc := range []struct {
		name string
		h    booking.Hold
		code string
	}{
		{"unknown show", hold("nope", "o1", "A1"), booking.ENOTFOUND},
		{"unknown seat", unknownSeat, booking.EINVALID},
		{"no seats", hold("s1", "o1"), booking.EINVALID},
		{"duplicate seat", hold("s1", "o1", "A1", "A1"), booking.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.HoldSeats(ctx, tc.h, at(0))
			if got := booking.ErrorCode(err); got != tc.code {
				t.Errorf("HoldSeats: %v (code %s), want code %s", err, got, tc.code)
			}
		})
	}
	if _, err := s.Hold(ctx, unknownSeat.ID); err != booking.ErrHoldNotFound {
		t.Errorf("a failed hold was stored: Hold = %v", err)
	}
	if _, err := s.Seats(ctx, "nope"); err != booking.ErrShowNotFound {
		t.Errorf("Seats(unknown show) = %v, want ErrShowNotFound", err)
	}
}
