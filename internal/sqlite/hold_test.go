package sqlite

import (
	"context"
	"fmt"
	"strconv"
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
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o1", "A1"), at(0).Rules); err != nil {
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
			err = booking.HoldSeatsStep(ctx, s, tc.m.Clock(), hold("s1", "o2", "A1"), tc.m.Rules)
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
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), h, at(0).Rules); err != nil {
		t.Fatalf("HoldSeats of 20 seats: %v", err)
	}
	h, err := s.Hold(ctx, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if h.Amount != 20*100 || h.Currency != "INR" {
		t.Errorf("hold amount = %d %s, want 2000 INR", h.Amount, h.Currency)
	}
	err = booking.HoldSeatsStep(ctx, s, at(time.Minute).Clock(), hold("s1", "o2", append(ids[15:], "B1")...), at(time.Minute).Rules)
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
			err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), tc.h, at(0).Rules)
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

// TestHoldReplacesEveryHoldOfTheOwner: no path leaves one owner locking
// seats of two holds in a show, but were a hand-edited file to, the
// owner's next hold takes over the seats of the most recent (its previous
// hold, SPEC §2), frees the seats of both and replaces both.
func TestHoldReplacesEveryHoldOfTheOwner(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 1, 5)
	first := hold("s1", "o1", "A1")
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), first, at(0).Rules); err != nil {
		t.Fatal(err)
	}
	// The second is the most recent: the owner's previous hold.
	locked := strconv.FormatInt(at(0).Now.UnixNano()+1, 10)
	for _, q := range []string{
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
			VALUES ('second', 's1', 'o1', 'A2', 100, 'INR', ` + locked + `, 'active')`,
		`UPDATE seats SET status = 'locked', hold_id = 'second', hold_owner = 'o1', locked_at = ` + locked + `
			WHERE show_id = 's1' AND seat_id = 'A2'`,
	} {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	next := hold("s1", "o1", "A2", "A3")
	if err := booking.HoldSeatsStep(ctx, s, at(time.Minute).Clock(), next, at(time.Minute).Rules); err != nil {
		t.Fatalf("the owner's next hold, of a seat of the second hold: %v", err)
	}
	for _, id := range []string{first.ID, "second"} {
		if h, err := s.Hold(ctx, id); err != nil || h.State != booking.HoldReplaced {
			t.Errorf("hold %s: state %q, %v; want %q", id, h.State, err, booking.HoldReplaced)
		}
	}
	seats, err := s.Seats(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range seats {
		want := map[string]string{"A2": next.ID, "A3": next.ID}[seat.ID]
		if seat.HoldID != want {
			t.Errorf("seat %s: hold %q, want %q", seat.ID, seat.HoldID, want)
		}
	}
}

// TestHoldIgnoresLockedSeatsWithoutHold: a locked seat that names its owner
// but no hold (only a hand edit makes one) belongs to no hold to replace;
// the owner's holds of other seats must still succeed, as they did before
// the insert began counting the owner's seats.
func TestHoldIgnoresLockedSeatsWithoutHold(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 1, 5)
	if _, err := s.write.ExecContext(ctx, `UPDATE seats SET status = 'locked', hold_owner = 'o1', locked_at = ?
		WHERE show_id = 's1' AND seat_id = 'A1'`, at(0).Now.UnixNano()); err != nil {
		t.Fatal(err)
	}
	for i, seats := range [][]string{{"A2"}, {"A3", "A4"}} {
		h := hold("s1", "o1", seats...)
		if err := booking.HoldSeatsStep(ctx, s, at(time.Duration(i)*time.Minute).Clock(), h, at(time.Duration(i)*time.Minute).Rules); err != nil {
			t.Fatalf("hold %d of %v: %v", i, seats, err)
		}
		if got, err := s.Hold(ctx, h.ID); err != nil || got.Amount != booking.Money(100*len(seats)) {
			t.Errorf("hold %d: amount %d, %v; want %d", i, got.Amount, err, 100*len(seats))
		}
	}
}
