package mongo

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

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
	unreported := explain(t, s, bson.D{
		{Key: "find", Value: colBookings}, {Key: "filter", Value: unreportedBookings([]string{showID})}, {Key: "projection", Value: reportSource},
	}, "queryPlanner")
	stages, indexNames = winningPlan(t, unreported)
	if !indexNames[bookingsReportIndex] || stages["COLLSCAN"] {
		t.Errorf("film report's bookings without report: winning plan has stages %v on indexes %v; want %s:\n%s",
			stages, indexNames, bookingsReportIndex, unreported)
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

// TestAddUnreported: bookings stored without report add their sums to
// their shows' (booking.Booking.Sums): from their tickets, tax at each
// seat's rate, or without them from their amount shared over their seats.
func TestAddUnreported(t *testing.T) {
	sums := map[string]booking.TicketSums{"s1": {Admissions: 1, Gross: 100}}
	addUnreported(sums, []bookingDoc{
		{ShowID: "s1", SeatIDs: []string{"A1", "A2"}, Amount: 250_00, Tickets: []ticketDoc{
			{SeatID: "A1", Type: "adult", Price: 250_00, Rate: 1800}, {SeatID: "A2", Type: "comp"},
		}},
		{ShowID: "s1", SeatIDs: []string{"B1", "B2", "B3"}, Amount: 2},
		{ShowID: "s2", SeatIDs: []string{"C1"}, Amount: 90_00},
	})
	want := map[string]booking.TicketSums{
		"s1": {Admissions: 1 + 1 + 2, Comps: 1 + 1, Gross: 100 + 250_00 + 2, Tax: 38_14},
		"s2": {Admissions: 1, Gross: 90_00},
	}
	if diff := cmp.Diff(want, sums); diff != "" {
		t.Errorf("sums (-want +got):\n%s", diff)
	}
}

// withoutReport is d as a process of a release before the film report
// stores it: without report.
func withoutReport(t *testing.T, d bookingDoc) bson.D {
	t.Helper()
	raw, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var all, out bson.D
	if err := bson.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Key != "report" {
			out = append(out, e)
		}
	}
	return out
}

// TestFilmShowsCountsBookingsWithoutReport: a booking a process of an
// older release inserted after 0034_booking_report ran has no report; the
// film report counts it all the same (a refunded one not), and its
// payment's next step gives it its report.
func TestFilmShowsCountsBookingsWithoutReport(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	start := time.Now().Add(24 * time.Hour).Truncate(time.Second)
	show := showDoc{ID: booking.NewID(), Movie: movieDoc{ID: booking.NewID(), Title: "Film"}, Theatre: theatreDoc{ID: booking.NewID(), Name: "Odeon"},
		StartsAt: start.UnixNano(), Currency: "INR"}
	if _, err := s.col(colShows).InsertOne(ctx, show); err != nil {
		t.Fatal(err)
	}
	newer := booking.Booking{
		ID: booking.NewID(), HoldID: booking.NewID(), PaymentID: booking.NewID(), ShowID: show.ID, SeatIDs: []string{"A1"},
		Amount: 250_00, Currency: "INR", State: booking.BookingConfirmed, CreatedAt: start, UpdatedAt: start,
		Tickets: []booking.SeatTicket{{SeatID: "A1", Type: "adult", Price: 250_00, TaxRate: 1800}},
	}
	older := newer
	older.ID, older.HoldID, older.PaymentID, older.SeatIDs = booking.NewID(), booking.NewID(), booking.NewID(), []string{"B1", "B2"}
	older.Amount, older.Tickets = 300_00, []booking.SeatTicket{{SeatID: "B1", Type: "adult", Price: 300_00}, {SeatID: "B2", Type: "comp"}}
	olderNoTickets := older
	olderNoTickets.ID, olderNoTickets.HoldID, olderNoTickets.PaymentID = booking.NewID(), booking.NewID(), booking.NewID()
	olderNoTickets.SeatIDs, olderNoTickets.Amount, olderNoTickets.Tickets = []string{"C1", "C2", "C3"}, 2, nil
	refunded := older
	refunded.ID, refunded.HoldID, refunded.PaymentID, refunded.State = booking.NewID(), booking.NewID(), booking.NewID(), booking.BookingRefunded
	docs := []any{toBookingDoc(newer), withoutReport(t, toBookingDoc(older)), withoutReport(t, toBookingDoc(olderNoTickets)), withoutReport(t, toBookingDoc(refunded))}
	if _, err := s.col(colBookings).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	want := booking.TicketSums{Admissions: 1 + 1 + 2, Comps: 1 + 1, Gross: 250_00 + 300_00 + 2, Tax: 38_14}
	check := func(when string) {
		t.Helper()
		shows, err := s.FilmShows(ctx, start.Add(-time.Hour), start.Add(time.Hour))
		if err != nil || len(shows) != 1 || shows[0].Sums != want {
			t.Errorf("%s: FilmShows = %+v, %v; want one show with %+v", when, shows, err, want)
		}
	}
	check("without report")

	err := s.Atomically(ctx, time.Now, func(tx booking.Tx) error {
		b, err := tx.PaymentBooking(older.ID)
		if err != nil {
			return err
		}
		b.TicketCode = "ABCDEFGH"
		return tx.UpdatePaymentBooking(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	var d bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byID(older.ID)).Decode(&d); err != nil {
		t.Fatal(err)
	}
	if want := (reportDoc{Admissions: 1, Comps: 1, Gross: 300_00}); d.Report != want || d.TicketCode != "ABCDEFGH" {
		t.Errorf("booking after its payment's step: report %+v, ticket code %q; want %+v", d.Report, d.TicketCode, want)
	}
	check("one given its report")
}

// TestMigrateGivesBookingsTheirReport: 0034_booking_report gives every
// booking stored without report its sums, in batches (more bookings than
// one holds), and leaves a booking that has one as it is;
// 0034_drop_shows_movie drops shows' movie once, so that the index an
// older release makes again as it starts stays.
func TestMigrateGivesBookingsTheirReport(t *testing.T) {
	dsn := freshDatabase(t)
	ctx := context.Background()
	name, err := databaseName(dsn)
	if err != nil {
		t.Fatal(err)
	}
	// open, not Open: the documents are stored before the first Migrate.
	s, err := open(ctx, dsn, name)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	oldMovie := mongo.IndexModel{Keys: bson.D{{Key: "movie.id", Value: 1}}, Options: options.Index().SetName("movie")}
	if _, err := s.col(colShows).Indexes().CreateOne(ctx, oldMovie); err != nil {
		t.Fatal(err)
	}
	n := reportConversionBatch + 1
	docs := make([]any, 0, n+1)
	for i := range n {
		b := booking.Booking{ID: fmt.Sprintf("b%05d", i), ShowID: "s1", SeatIDs: []string{"A1", "A2"}, Amount: 2*100 + 1,
			State: booking.BookingConfirmed}
		if i%2 == 0 {
			b.Tickets = []booking.SeatTicket{{SeatID: "A1", Price: 201}, {SeatID: "A2"}}
		}
		docs = append(docs, withoutReport(t, toBookingDoc(b)))
	}
	kept := toBookingDoc(booking.Booking{ID: "kept", ShowID: "s1", SeatIDs: []string{"A1"}, Amount: 100, State: booking.BookingConfirmed})
	kept.Report = reportDoc{Admissions: 1, Gross: 100, Tax: 15}
	docs = append(docs, kept)
	if _, err := s.col(colBookings).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	hasMovie := func() bool {
		for _, spec := range indexSpecs(t, s, colShows) {
			if spec["name"] == "movie" {
				return true
			}
		}
		return false
	}
	for i := range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate %d: %v", i, err)
		}
		if got, want := hasMovie(), i == 1; got != want {
			t.Errorf("after Migrate %d, shows' movie index present = %v; want %v", i, got, want)
		}
		// The older release starts again and makes its index.
		if _, err := s.col(colShows).Indexes().CreateOne(ctx, oldMovie); err != nil {
			t.Fatal(err)
		}
	}
	cur, err := s.col(colBookings).Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var got []bookingDoc
	if err := cur.All(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != n+1 {
		t.Fatalf("%d bookings; want %d", len(got), n+1)
	}
	for _, d := range got {
		want := map[bool]reportDoc{true: {Admissions: 1, Comps: 1, Gross: 201}, false: {Admissions: 2, Gross: 201}}[len(d.Tickets) > 0]
		if d.ID == "kept" {
			want = kept.Report
		}
		if d.Report != want {
			t.Errorf("booking %s: report %+v; want %+v", d.ID, d.Report, want)
		}
	}
	if n, err := s.col(colBookings).CountDocuments(ctx, noReport()); err != nil || n != 0 {
		t.Errorf("bookings without report: %d, %v", n, err)
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

// TestMigrateGivesBookingsTheirSaleTime: Migrate gives each booking
// without a known sale time its confirmed_at (SQLite's 0039): a counter
// sale its creation, an online booking its first booked event's time, one
// whose event was pruned but that has a ticket code its creation, one
// never confirmed 0; and again at the next start, a booking an older
// process confirmed meanwhile (confirmed_at 0 with a ticket code).
func TestMigrateGivesBookingsTheirSaleTime(t *testing.T) {
	dsn := freshDatabase(t)
	ctx := context.Background()
	name, err := databaseName(dsn)
	if err != nil {
		t.Fatal(err)
	}
	s, err := open(ctx, dsn, name)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	doc := func(id, channel, code string, created int64) bson.D {
		return bson.D{{Key: "_id", Value: id}, {Key: "payment_id", Value: "p-" + id}, {Key: "show_id", Value: "s1"},
			{Key: "state", Value: "confirmed"}, {Key: "channel", Value: channel}, {Key: "ticket_code", Value: code}, {Key: "created_at", Value: created}}
	}
	docs := []any{
		doc("counter", "box_office", "CODE0001", 10),
		doc("online", "online", "CODE0002", 20),
		doc("pruned", "online", "CODE0003", 30),
		doc("never", "online", "", 40),
	}
	if _, err := s.col(colBookings).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	events := []any{
		eventDoc{ID: "e2", PaymentID: "p-online", Effect: string(booking.EffectBooked), ReceivedAt: 25},
		eventDoc{ID: "e3", PaymentID: "p-online", Effect: string(booking.EffectBooked), ReceivedAt: 27},
	}
	if _, err := s.col(colPaymentEvents).InsertMany(ctx, events); err != nil {
		t.Fatal(err)
	}
	check := func(want map[string]int64) {
		t.Helper()
		for id, at := range want {
			var d bookingDoc
			if err := s.col(colBookings).FindOne(ctx, byID(id)).Decode(&d); err != nil {
				t.Fatal(err)
			}
			if d.ConfirmedAt != at {
				t.Errorf("booking %s: confirmed_at %d, want %d", id, d.ConfirmedAt, at)
			}
		}
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	check(map[string]int64{"counter": 10, "online": 25, "pruned": 30, "never": 0})

	// An older process confirms "never" after that: its ticket code, no
	// sale time. The next start gives it its creation (no event).
	if _, err := s.col(colBookings).UpdateOne(ctx, byID("never"), bson.D{{Key: "$set", Value: bson.D{{Key: "ticket_code", Value: "CODE0004"}}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate again: %v", err)
	}
	check(map[string]int64{"counter": 10, "online": 25, "pruned": 30, "never": 40})
}
