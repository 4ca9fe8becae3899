package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestSeatsOfEveryLength: tx.SeatsOf reads the same seats whatever the
// length of the list (a statement of its own length up to listedMax, the
// JSON array beyond), with only the changing columns read once the show's
// layout is cached and every column before, with and without the rest of
// the rows; an id the show does not have is left out.
func TestSeatsOfEveryLength(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, listedMax+4)
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o1", "A2", "A3", "B5"), at(0).Rules); err != nil {
		t.Fatal(err)
	}
	all, err := s.Seats(ctx, "s1") // and caches the layout
	if err != nil {
		t.Fatal(err)
	}
	byID := func(a, b booking.Seat) int { return strings.Compare(a.ID, b.ID) }
	for n := 1; n <= listedMax+2; n++ {
		var ids []string
		for i := range n {
			ids = append(ids, fmt.Sprintf("%c%d", 'A'+i%2, i/2+1))
		}
		asked := append(slices.Clone(ids), "Z99")
		for _, wholeRows := range []bool{false, true} {
			var want []booking.Seat
			for _, seat := range all {
				if slices.Contains(ids, seat.ID) || wholeRows && (seat.Row == "A" || seat.Row == "B" && n > 1) {
					want = append(want, seat)
				}
			}
			slices.SortFunc(want, byID)
			for _, cached := range []bool{true, false} {
				if !cached {
					s.layouts.remove("s1")
				}
				var got []booking.Seat
				err := s.Atomically(ctx, at(0).Clock(), func(tx booking.Tx) error {
					var err error
					got, err = tx.SeatsOf("s1", asked, wholeRows)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				slices.SortFunc(got, byID)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%d seats, whole rows %v, layout cached %v: SeatsOf (-want +got):\n%s", n, wholeRows, cached, diff)
				}
				if _, err := s.Seats(ctx, "s1"); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestStepEndedByItsContextCommitsNothing: a step whose request ends while
// it runs (its statements do not watch the context) commits nothing, and
// says why.
func TestStepEndedByItsContextCommitsNothing(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 1, 4)
	ctx, cancel := context.WithCancel(context.Background())
	h := hold("s1", "o1", "A1")
	err := s.Atomically(ctx, at(0).Clock(), func(tx booking.Tx) error {
		if _, err := tx.LockSeats("s1", h.SeatIDs, h.ID, h.Owner, tx.Now()); err != nil {
			return err
		}
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Atomically = %v, want context.Canceled", err)
	}
	seats, err := s.Seats(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if seats[0].Status != booking.SeatAvailable {
		t.Errorf("A1 is %s after a step whose context ended, want available", seats[0].Status)
	}
}

// TestFreeSeatsPlan: freeing a hold's seats (tx.FreeSeats) finds them by
// the primary key, not through the index it changes.
// TestHoldSeatsByKeyPlan: with no index of the seats' hold
// (0028_no_seats_hold.sql), every statement that finds a hold's seats
// searches the seats' primary key by show and seat, among the seats the
// hold was made with, and walks no table.
func TestHoldSeatsByKeyPlan(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, 4)
	for _, q := range []struct {
		name string
		sql  string
		args []any
	}{
		{"release", releaseSeatsSQL, []any{"s1", "o1", "h1", `["A1","B2"]`}},
		{"relock", relockSQL, []any{1, "s1", "o1", "h1", `["A1","B2"]`}},
		{"heldFrom", heldFromSQL, []any{"s1", "1.2.3.4", 0}},
		{"activeHold", activeHoldSQL, []any{"s1", "o1"}},
		{"pruneHolds", pruneHoldsSQL, []any{"a", "b", 10, 0}},
	} {
		plan := queryPlan(t, s, q.sql, q.args...)
		if !slices.ContainsFunc(plan, func(step string) bool {
			return strings.HasPrefix(step, "SEARCH s") && strings.Contains(step, "USING PRIMARY KEY (show_id=? AND seat_id=?)")
		}) {
			t.Errorf("%s: query plan %q, want a search of the seats' primary key by show and seat", q.name, plan)
		}
		if slices.ContainsFunc(plan, walks) {
			t.Errorf("%s: query plan %q walks a table", q.name, plan)
		}
	}
}

func TestFreeSeatsPlan(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, 4)
	plan := queryPlan(t, s, listedSQL(releaseSeatsSQL, 2), "s1", "o1", "h1", "A1", "B2")
	if len(plan) != 1 || !strings.HasPrefix(plan[0], "SEARCH seats USING PRIMARY KEY (show_id=? AND seat_id=?)") {
		t.Errorf("query plan %q, want a search of the primary key by show and seat", plan)
	}
}

// TestHoldReadAsApart: tx.HoldRead, the show, the owner's active holds and
// the seats in one statement, reads what HoldStart and SeatsOf read apart,
// for every length of list, with and without the rest of the rows, with
// the layout cached and not; of a hold, what the step uses of it. An
// active hold with a payment pending is paying; an unknown show is
// ErrShowNotFound.
func TestHoldReadAsApart(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, listedMax+4)
	first := hold("s1", "o1", "A2", "A3", "B5")
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), first, at(0).Rules); err != nil {
		t.Fatal(err)
	}
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o2", "C1"), at(0).Rules); err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.Exec(`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at)
		VALUES ('p1', ?, 'b1', 'o1', 100, 'INR', 'pending', 1)`, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seats(ctx, "s1"); err != nil { // caches the layout
		t.Fatal(err)
	}
	byID := func(a, b booking.Seat) int { return strings.Compare(a.ID, b.ID) }
	slim := func(hs []booking.Hold) []booking.Hold {
		var out []booking.Hold
		for _, h := range hs {
			out = append(out, booking.Hold{ID: h.ID, ShowID: h.ShowID, Owner: h.Owner, SeatIDs: h.SeatIDs, CreatedAt: h.CreatedAt, State: h.State})
		}
		return out
	}
	for n := 1; n <= listedMax+2; n++ {
		var ids []string
		for i := range n {
			ids = append(ids, fmt.Sprintf("%c%d", 'A'+i%3, i/3+1))
		}
		asked := append(slices.Clone(ids), "Z99")
		for _, owner := range []string{"o1", "o3"} {
			for _, wholeRows := range []bool{false, true} {
				for _, cached := range []bool{true, false} {
					if !cached {
						s.layouts.remove("s1")
					}
					err := s.Atomically(ctx, at(0).Clock(), func(btx booking.Tx) error {
						tx := btx.(*tx)
						show, active, paying, seats, err := tx.HoldRead("s1", owner, asked, wholeRows)
						if err != nil {
							return err
						}
						wantShow, wantActive, wantPaying, err := tx.HoldStart("s1", owner)
						if err != nil {
							return err
						}
						wantSeats, err := tx.SeatsOf("s1", asked, wholeRows)
						if err != nil {
							return err
						}
						slices.SortFunc(seats, byID)
						slices.SortFunc(wantSeats, byID)
						if diff := cmp.Diff(wantShow, show); diff != "" {
							t.Errorf("n=%d %s rows=%v cached=%v: show (-apart +at once):\n%s", n, owner, wholeRows, cached, diff)
						}
						if diff := cmp.Diff(slim(wantActive), slim(active)); diff != "" {
							t.Errorf("n=%d %s rows=%v cached=%v: holds (-apart +at once):\n%s", n, owner, wholeRows, cached, diff)
						}
						if diff := cmp.Diff(wantPaying, paying); diff != "" {
							t.Errorf("n=%d %s rows=%v cached=%v: paying (-apart +at once):\n%s", n, owner, wholeRows, cached, diff)
						}
						if diff := cmp.Diff(wantSeats, seats); diff != "" {
							t.Errorf("n=%d %s rows=%v cached=%v: seats (-apart +at once):\n%s", n, owner, wholeRows, cached, diff)
						}
						if owner == "o1" && (len(active) != 1 || !paying[0]) {
							t.Errorf("n=%d: o1's holds %v paying %v, want the first, paying", n, active, paying)
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					if !cached {
						if _, err := s.Seats(ctx, "s1"); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
	}
	err := s.Atomically(ctx, at(0).Clock(), func(btx booking.Tx) error {
		_, _, _, _, err := btx.(*tx).HoldRead("nope", "o1", []string{"A1"}, false)
		return err
	})
	if !errors.Is(err, booking.ErrShowNotFound) {
		t.Errorf("unknown show: %v, want ErrShowNotFound", err)
	}
}
