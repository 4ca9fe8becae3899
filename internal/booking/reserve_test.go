package booking_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestDecideHoldReserves: online, a seat with a reserve is taken, for the
// seat rule and the gap rule alike; the box office's hold (Counter) may
// take a house seat, never a blocked one, and a house seat is free to it
// for the gap rule.
func TestDecideHoldReserves(t *testing.T) {
	var row []booking.Seat
	for i, id := range []string{"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"} {
		st := seat(id, booking.SeatAvailable, "", time.Time{})
		st.GridCol = i
		row = append(row, st)
	}
	row[0].Reserve = booking.ReserveHouse
	row[7].Reserve = booking.ReserveBlocked
	tests := []struct {
		name      string
		seats     []string
		counter   bool
		wantCode  string
		wantSeats []string
		wantGap   string
	}{
		{name: "online, a house seat is taken", seats: []string{"A1", "A2"}, wantCode: booking.ECONFLICT, wantSeats: []string{"A1"}},
		{name: "online, a blocked seat is taken", seats: []string{"A7", "A8"}, wantCode: booking.ECONFLICT, wantSeats: []string{"A8"}},
		{name: "online, a reserved seat closes a gap", seats: []string{"A3", "A4"}, wantCode: booking.EINVALID, wantGap: "A2"},
		{name: "online, beside a reserved seat", seats: []string{"A2", "A3"}},
		{name: "the counter takes a house seat", seats: []string{"A1", "A2"}, counter: true},
		{name: "the counter never takes a blocked seat", seats: []string{"A7", "A8"}, counter: true, wantCode: booking.ECONFLICT, wantSeats: []string{"A8"}},
		{name: "at the counter a house seat is free for the gap rule", seats: []string{"A2", "A3"}, counter: true, wantCode: booking.EINVALID, wantGap: "A1"},
		{name: "at the counter no gap beside a house seat", seats: []string{"A3", "A4"}, counter: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := booking.Hold{ID: "new", Owner: "o1", SeatIDs: tt.seats, Counter: tt.counter}
			_, err := booking.DecideHold(h, row, booking.PreviousHold{}, at(0))
			if got := booking.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("DecideHold(%q) = %v (code %q), want code %q", tt.seats, err, got, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantSeats, booking.UnavailableSeats(err)); diff != "" {
				t.Errorf("unavailable seats (-want +got):\n%s", diff)
			}
			var ge *booking.GapError
			gotGap := ""
			if errors.As(err, &ge) {
				gotGap = ge.Seat
			}
			if gotGap != tt.wantGap {
				t.Errorf("gap %q, want %q", gotGap, tt.wantGap)
			}
		})
	}
}

// TestDecideReserve: booked seats, live locks and locks whose hold is
// being paid for conflict, all of them named; lapsed locks are freed;
// releasing never conflicts.
func TestDecideReserve(t *testing.T) {
	seats := []booking.Seat{
		seat("A1", booking.SeatBooked, "", time.Time{}),
		seat("A2", booking.SeatLocked, "live", t0),
		seat("A3", booking.SeatLocked, "lapsed", t0.Add(-2*ttl)),
		seat("A4", booking.SeatLocked, "paying", t0.Add(-2*ttl)),
		seat("A5", booking.SeatAvailable, "", time.Time{}),
	}
	paying := map[string]bool{"paying": true}
	_, err := booking.DecideReserve(seats, booking.ReserveHouse, paying, at(0))
	var ce *booking.ReserveConflictError
	if !errors.As(err, &ce) || !cmp.Equal(ce.Seats, []string{"A1", "A2", "A4"}) || booking.ErrorCode(err) != booking.ECONFLICT {
		t.Errorf("DecideReserve of every seat = %v, want a conflict on A1, A2, A4", err)
	}
	free, err := booking.DecideReserve(seats[2:3], booking.ReserveBlocked, paying, at(0))
	if err != nil || !cmp.Equal(free, []string{"A3"}) {
		t.Errorf("DecideReserve of the lapsed lock = %v, %v; want A3 freed", free, err)
	}
	free, err = booking.DecideReserve(seats, booking.ReserveNone, paying, at(0))
	if err != nil || len(free) != 0 {
		t.Errorf("releasing = %v, %v; want nothing freed, no error", free, err)
	}
}
