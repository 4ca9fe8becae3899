package storetest

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var showTests = []test{
	{"RoundTrip", testShowRoundTrip},
	{"SeatsInMapOrder", testSeatsInMapOrder},
	{"SeatsInOneGridPlace", testSeatsInOneGridPlace},
	{"CountShows", testCountShows},
	{"UpcomingShows", testUpcomingShows},
	{"Occupancy", testOccupancy},
	{"NotFound", testNotFound},
	{"ShowSeats", testShowSeats},
	{"ShowSeatsIsOneRead", testShowSeatsIsOneRead},
}

func testShowRoundTrip(t *testing.T, s store) {
	ctx := context.Background()
	show, seats := newShow(t, s, 3, 4, base.Add(48*time.Hour))
	other, _ := newShow(t, s, 1, 2, base.Add(72*time.Hour))

	got, err := s.Show(ctx, show.ID)
	if err != nil {
		t.Fatalf("Show: %v", err)
	}
	if diff := cmp.Diff(show, got); diff != "" {
		t.Errorf("Show (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(seats, getSeats(t, s, show.ID)); diff != "" {
		t.Errorf("Seats of a new show (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(seatIDs(seats), availableIDs(t, s, show.ID, at(0))); diff != "" {
		t.Errorf("AvailableSeatIDs of a new show (-want +got):\n%s", diff)
	}
	if got := getSeats(t, s, other.ID); len(got) != 2 {
		t.Errorf("Seats of the other show: %d seats, want 2", len(got))
	}
}

// testSeatsInMapOrder numbers a row from right to left, so that neither the
// ids nor the order of creation is map order: only (GridRow, GridCol) is.
func testSeatsInMapOrder(t *testing.T, s store) {
	id := booking.NewID()
	show := booking.Show{ID: id, Movie: booking.Movie{ID: "m1", Title: "Mirror"}, Theatre: booking.Theatre{ID: "t1", Name: "Plaza", City: "Kochi"}, Screen: "1", StartsAt: later, Currency: currency}
	mk := func(row string, num, gridRow, gridCol int) booking.Seat {
		return booking.Seat{ShowID: id, ID: row + strconv.Itoa(num), Row: row, Number: num, GridRow: gridRow, GridCol: gridCol,
			Category: "Classic", Price: classicPrice, Kind: booking.KindStandard, Status: booking.SeatAvailable}
	}
	var want []booking.Seat
	// Row B is nearest the screen (GridRow 0), numbered right to left with an
	// aisle; row A behind it numbered left to right, 9 before 10.
	for col, num := range []int{12, 11, 10, 9, 2, 1} {
		gc := col
		if col >= 4 {
			gc += 2
		}
		want = append(want, mk("B", num, 0, gc))
	}
	for num := 1; num <= 11; num++ {
		want = append(want, mk("A", num, 1, num-1))
	}
	createShow(t, s, show, want)
	if diff := cmp.Diff(want, getSeats(t, s, id)); diff != "" {
		t.Errorf("Seats not in map order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(seatIDs(want), availableIDs(t, s, id, at(0))); diff != "" {
		t.Errorf("AvailableSeatIDs not in map order (-want +got):\n%s", diff)
	}
	hold(t, s, id, "o1", at(0), "B10", "A9")
	var wantAvail []string
	for _, seat := range want {
		if seat.ID != "B10" && seat.ID != "A9" {
			wantAvail = append(wantAvail, seat.ID)
		}
	}
	if diff := cmp.Diff(wantAvail, availableIDs(t, s, id, at(time.Minute))); diff != "" {
		t.Errorf("AvailableSeatIDs with a hold (-want +got):\n%s", diff)
	}
}

func testCountShows(t *testing.T, s store) {
	ctx := context.Background()
	n, err := s.CountShows(ctx)
	if err != nil || n != 0 {
		t.Fatalf("CountShows of an empty store = %d, %v; want 0, nil", n, err)
	}
	newShow(t, s, 1, 2, base.Add(-30*24*time.Hour)) // past shows count too
	newShow(t, s, 1, 2, later)
	newShow(t, s, 2, 2, base.Add(time.Hour))
	n, err = s.CountShows(ctx)
	if err != nil || n != 3 {
		t.Fatalf("CountShows = %d, %v; want 3, nil", n, err)
	}
}

func testUpcomingShows(t *testing.T, s store) {
	ctx := context.Background()
	from := base.Add(24 * time.Hour)
	m := at(2 * ttl)

	got, err := s.UpcomingShows(ctx, from, 10, m)
	if err != nil || len(got) != 0 {
		t.Fatalf("UpcomingShows of an empty store = %v, %v; want none", got, err)
	}

	// Created out of order; one starts 1ns before from, one exactly at it.
	late, _ := newShow(t, s, 2, 3, from.Add(3*time.Hour))
	newShow(t, s, 2, 2, from.Add(-time.Nanosecond))
	busy, _ := newShow(t, s, 3, 4, from.Add(time.Hour))
	exact, _ := newShow(t, s, 1, 5, from)
	single, _ := newShow(t, s, 1, 1, from.Add(2*time.Hour))

	// busy (12 seats): 2 held by a live lock, 1 by a lapsed lock, 1 booked,
	// 1 released.
	hold(t, s, busy.ID, "o-live", at(2*ttl-time.Nanosecond), "A1", "A2")
	hold(t, s, busy.ID, "o-lapsed", at(ttl), "A3")
	book(t, s, busy.ID, "o-booked", at(time.Minute), "C4")
	r := hold(t, s, busy.ID, "o-released", at(ttl+time.Minute), "B1")
	if _, err := s.ReleaseHold(ctx, r.ID, r.Owner); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	// single: its only seat held.
	hold(t, s, single.ID, "o-single", at(2*ttl-time.Minute), "A1")

	want := []booking.ShowSummary{
		{Show: exact, SeatsTotal: 5, SeatsLeft: 5, MinPrice: classicPrice, MaxPrice: classicPrice},
		{Show: busy, SeatsTotal: 12, SeatsLeft: 12 - 2 - 1, MinPrice: classicPrice, MaxPrice: primePrice},
		{Show: single, SeatsTotal: 1, SeatsLeft: 0, MinPrice: classicPrice, MaxPrice: classicPrice},
		{Show: late, SeatsTotal: 6, SeatsLeft: 6, MinPrice: classicPrice, MaxPrice: primePrice},
	}
	got, err = s.UpcomingShows(ctx, from, 10, m)
	if err != nil {
		t.Fatalf("UpcomingShows: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UpcomingShows(from, 10) (-want +got):\n%s", diff)
	}
	got, err = s.UpcomingShows(ctx, from, 2, m)
	if err != nil {
		t.Fatalf("UpcomingShows: %v", err)
	}
	if diff := cmp.Diff(want[:2], got); diff != "" {
		t.Errorf("UpcomingShows(from, 2) (-want +got):\n%s", diff)
	}
	// The seat rule at another moment: busy's live lock lapses, single's too.
	got, err = s.UpcomingShows(ctx, from.Add(time.Hour), 10, at(3*ttl))
	if err != nil {
		t.Fatalf("UpcomingShows: %v", err)
	}
	later := []booking.ShowSummary{want[1], want[2], want[3]}
	later[0].SeatsLeft, later[1].SeatsLeft = 12-1, 1
	if diff := cmp.Diff(later, got); diff != "" {
		t.Errorf("UpcomingShows(from+1h, 10) once the locks lapsed (-want +got):\n%s", diff)
	}
}

func testOccupancy(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 5, later)
	if diff := cmp.Diff(booking.Occupancy{Total: 10, Available: 10}, occupancy(t, s, show.ID, at(0))); diff != "" {
		t.Errorf("Occupancy of a new show (-want +got):\n%s", diff)
	}
	hold(t, s, show.ID, "o1", at(0), "A1", "A2", "A3")
	book(t, s, show.ID, "o2", at(time.Minute), "B1", "B2")
	r := hold(t, s, show.ID, "o3", at(2*time.Minute), "B5")
	if _, err := s.ReleaseHold(ctx, r.ID, r.Owner); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	hold(t, s, show.ID, "o4", at(3*time.Minute), "A5")

	tests := []struct {
		name string
		m    booking.Moment
		want booking.Occupancy
	}{
		{"all locks live", at(ttl - time.Nanosecond), booking.Occupancy{Total: 10, Booked: 2, Held: 4, Available: 4}},
		{"first lock lapsed exactly", at(ttl), booking.Occupancy{Total: 10, Booked: 2, Held: 1, Available: 7}},
		{"second lock 1ns before lapsing", at(ttl + 3*time.Minute - time.Nanosecond), booking.Occupancy{Total: 10, Booked: 2, Held: 1, Available: 7}},
		{"every lock lapsed", at(ttl + 3*time.Minute), booking.Occupancy{Total: 10, Booked: 2, Available: 8}},
		{"a long TTL keeps them", booking.Rules{TTL: time.Hour}.At(base.Add(ttl + 3*time.Minute)), booking.Occupancy{Total: 10, Booked: 2, Held: 4, Available: 4}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, occupancy(t, s, show.ID, tt.m)); diff != "" {
			t.Errorf("%s: Occupancy (-want +got):\n%s", tt.name, diff)
		}
	}
}

// testNotFound checks every getter reports an unknown id with the domain's
// sentinel, not a zero value.
func testNotFound(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 2, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h, at(0))
	unknown := booking.NewID()

	_, err := s.Show(ctx, unknown)
	wantErr(t, "Show", err, booking.ErrShowNotFound)
	_, err = s.Seats(ctx, unknown)
	wantErr(t, "Seats", err, booking.ErrShowNotFound)
	_, err = s.AvailableSeatIDs(ctx, unknown, at(0))
	wantErr(t, "AvailableSeatIDs", err, booking.ErrShowNotFound)
	_, err = s.Occupancy(ctx, unknown, at(0))
	wantErr(t, "Occupancy", err, booking.ErrShowNotFound)
	err = s.HoldSeats(ctx, newHold(unknown, "o1", at(0), "A1"), at(0))
	wantErr(t, "HoldSeats on an unknown show", err, booking.ErrShowNotFound)
	_, err = s.Hold(ctx, unknown)
	wantErr(t, "Hold", err, booking.ErrHoldNotFound)
	_, err = s.ActiveHold(ctx, show.ID, "o2")
	wantErr(t, "ActiveHold of a session without one", err, booking.ErrHoldNotFound)
	_, err = s.ActiveHold(ctx, unknown, "o1")
	wantCode(t, "ActiveHold on an unknown show", err, booking.ENOTFOUND)
	_, err = s.ReleaseHold(ctx, unknown, "o1")
	wantCode(t, "ReleaseHold", err, booking.ENOTFOUND)
	_, _, err = s.StartPayment(ctx, unknown, "o1", newPaymentStart(), at(0))
	wantErr(t, "StartPayment", err, booking.ErrHoldNotFound)
	_, err = s.Payment(ctx, unknown)
	wantErr(t, "Payment", err, booking.ErrPaymentNotFound)
	_, err = s.Booking(ctx, unknown)
	wantErr(t, "Booking", err, booking.ErrBookingNotFound)
	// An id of another kind is no id of this kind.
	_, err = s.Payment(ctx, h.ID)
	wantErr(t, "Payment(hold id)", err, booking.ErrPaymentNotFound)
	_, err = s.Booking(ctx, p.ID)
	wantErr(t, "Booking(payment id)", err, booking.ErrBookingNotFound)
	_, err = s.Hold(ctx, show.ID)
	wantErr(t, "Hold(show id)", err, booking.ErrHoldNotFound)

	ev := event(p, booking.EventPaymentSucceeded)
	ev.PaymentID = unknown
	_, err = s.SettlePayment(ctx, ev, booking.NewTicketCode(), at(0))
	wantErr(t, "SettlePayment of an unknown payment", err, booking.ErrPaymentNotFound)

	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

// testSeatsInOneGridPlace: seats that share a grid place (CreateShow does
// not forbid it) come back in seat id order, by Seats and by
// AvailableSeatIDs alike.
func testSeatsInOneGridPlace(t *testing.T, s store) {
	id := booking.NewID()
	show := booking.Show{ID: id, Theatre: booking.Theatre{ID: "t1"}, StartsAt: later, Currency: currency}
	var seats []booking.Seat
	for _, p := range []struct {
		id       string
		row, col int
	}{{"C3", 0, 1}, {"B2", 0, 0}, {"A9", 0, 1}, {"A1", 0, 0}} {
		seats = append(seats, booking.Seat{ShowID: id, ID: p.id, Row: p.id[:1], Number: 1, GridRow: p.row, GridCol: p.col,
			Category: "Classic", Price: classicPrice, Kind: booking.KindStandard, Status: booking.SeatAvailable})
	}
	if err := s.CreateShow(context.Background(), show, seats); err != nil {
		t.Fatal(err)
	}
	want := []string{"A1", "B2", "A9", "C3"}
	if got := seatIDs(getSeats(t, s, id)); !slices.Equal(got, want) {
		t.Errorf("Seats in map order: %v, want %v", got, want)
	}
	if got := availableIDs(t, s, id, at(0)); !slices.Equal(got, want) {
		t.Errorf("AvailableSeatIDs in map order: %v, want %v", got, want)
	}
}
