package mongo

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// TestFilmReportPlans asks the server how it runs the film report's reads:
// each show's confirmed bookings are summed from show_state_report without
// fetching a booking, and a film's shows at a theatre come from
// film_theatre_starts_at.
func TestFilmReportPlans(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	showID := booking.NewID()
	b := booking.Booking{
		ID: booking.NewID(), HoldID: booking.NewID(), PaymentID: booking.NewID(), ShowID: showID, SeatIDs: []string{"A1"},
		Amount: 250_00, Currency: "INR", State: booking.BookingConfirmed, CreatedAt: time.Now(), UpdatedAt: time.Now(),
		Tickets: []booking.SeatTicket{{SeatID: "A1", Type: "adult", Price: 250_00, TaxRate: 1800}},
	}
	if _, err := s.col(colBookings).InsertOne(ctx, toBookingDoc(b)); err != nil {
		t.Fatal(err)
	}
	agg := explain(t, s, bson.D{
		{Key: "aggregate", Value: colBookings}, {Key: "pipeline", Value: filmBookingsPipeline([]string{showID})}, {Key: "cursor", Value: bson.D{}},
	}, "queryPlanner")
	stages, indexNames := winningPlan(t, agg)
	if !indexNames[bookingsReportIndex] || stages["FETCH"] || stages["COLLSCAN"] {
		t.Errorf("film report's bookings: winning plan has stages %v on indexes %v; want %s and no FETCH:\n%s",
			stages, indexNames, bookingsReportIndex, agg)
	}
	// Many shows before now of other films, one of the film asked for:
	// the starts_at index would read them all.
	movie, now := booking.NewID(), time.Now()
	var docs []any
	for i := range 60 {
		d := showDoc{ID: booking.NewID(), Movie: movieDoc{ID: booking.NewID()}, Theatre: theatreDoc{ID: "t1"},
			StartsAt: now.Add(-time.Duration(i+1) * time.Hour).UnixNano(), Currency: "INR"}
		if i == 30 {
			d.Movie.ID = movie
		}
		docs = append(docs, d)
	}
	if _, err := s.col(colShows).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	find := explain(t, s, bson.D{
		{Key: "find", Value: colShows}, {Key: "filter", Value: bson.D{
			{Key: "$or", Value: bson.A{bson.D{{Key: "movie.id", Value: movie}, {Key: "theatre.id", Value: "t1"}}}},
			{Key: "starts_at", Value: bson.D{{Key: "$lt", Value: now.UnixNano()}}},
		}},
	}, "queryPlanner")
	stages, indexNames = winningPlan(t, find)
	if !indexNames[showsFilmIndex] || stages["COLLSCAN"] {
		t.Errorf("film report's shows: winning plan has stages %v on indexes %v; want %s:\n%s", stages, indexNames, showsFilmIndex, find)
	}
	var d bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byID(b.ID)).Decode(&d); err != nil {
		t.Fatal(err)
	}
	if want := (reportDoc{Admissions: 1, Gross: 250_00, Tax: 38_14}); d.Report != want {
		t.Errorf("booking's report = %+v; want %+v", d.Report, want)
	}
}

// TestSalesReportPlans asks the server how it runs the sales report's
// read: the bookings confirmed in the range from confirmed_at, those
// refunded in it from refunded_at, never a collection scan.
func TestSalesReportPlans(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	now := time.Now()
	var docs []any
	for i := range 60 {
		at := now.Add(-time.Duration(i+1) * 24 * time.Hour)
		b := booking.Booking{
			ID: booking.NewID(), HoldID: booking.NewID(), PaymentID: booking.NewID(), ShowID: "s1", SeatIDs: []string{"A1"},
			Amount: 250_00, Currency: "INR", State: booking.BookingConfirmed, CreatedAt: at, UpdatedAt: at, ConfirmedAt: at,
		}
		if i%3 == 0 {
			b.State, b.RefundedAt = booking.BookingRefunded, at.Add(time.Hour)
		}
		docs = append(docs, toBookingDoc(b))
	}
	if _, err := s.col(colBookings).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	find := explain(t, s, bson.D{
		{Key: "find", Value: colBookings},
		{Key: "filter", Value: salesBookingsFilter(booking.SalesQuery{From: now.Add(-72 * time.Hour), To: now})},
	}, "queryPlanner")
	stages, indexNames := winningPlan(t, find)
	if !indexNames[bookingsConfirmedIndex] || !indexNames[bookingsRefundedIndex] || stages["COLLSCAN"] {
		t.Errorf("sales report's bookings: winning plan has stages %v on indexes %v; want %s and %s:\n%s",
			stages, indexNames, bookingsConfirmedIndex, bookingsRefundedIndex, find)
	}
	got, err := s.SalesBookings(ctx, booking.SalesQuery{From: now.Add(-72 * time.Hour), To: now})
	if err != nil || len(got) != 3 {
		t.Errorf("SalesBookings of the last three days = %d bookings, %v; want 3", len(got), err)
	}
}
