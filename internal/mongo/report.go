package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// reportBatch bounds the show ids of one $in of the film report's
// aggregation, so that a year of shows stays far below the 16 MB command.
const reportBatch = 5000

// FilmShows reads the film report's shows (booking.FilmReportReader): the
// movies and theatres with a show not cancelled in [from, to) (the
// starts_at index), each of their shows through to (film_theatre_starts_at),
// the sums of each show's confirmed bookings by one aggregation over
// show_state_report (filmBookingsPipeline, covered by the index) plus those
// of its confirmed bookings stored without report (unreportedBookings), and
// the movies' terms and the theatres' names and zones by _id.
func (s *Store) FilmShows(ctx context.Context, from, to time.Time) ([]booking.ShowSales, error) {
	type film struct{ movie, theatre string }
	cur, err := s.col(colShows).Find(ctx,
		bson.D{
			{Key: "starts_at", Value: bson.D{{Key: "$gte", Value: from.UnixNano()}, {Key: "$lt", Value: to.UnixNano()}}},
			{Key: "cancelled_at", Value: bson.D{{Key: "$in", Value: bson.A{int64(0), nil}}}},
		},
		options.Find().SetProjection(bson.D{{Key: "movie.id", Value: 1}, {Key: "theatre.id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: film shows: %w", err)
	}
	var inWeek []showDoc
	if err := cur.All(ctx, &inWeek); err != nil {
		return nil, fmt.Errorf("mongo: film shows: %w", err)
	}
	seen := map[film]bool{}
	var or bson.A
	for _, d := range inWeek {
		f := film{d.Movie.ID, d.Theatre.ID}
		if seen[f] {
			continue
		}
		seen[f] = true
		or = append(or, bson.D{{Key: "movie.id", Value: f.movie}, {Key: "theatre.id", Value: f.theatre}})
	}
	if len(or) == 0 {
		return []booking.ShowSales{}, nil
	}
	cur, err = s.col(colShows).Find(ctx,
		bson.D{{Key: "$or", Value: or}, {Key: "starts_at", Value: bson.D{{Key: "$lt", Value: to.UnixNano()}}}},
		options.Find().SetProjection(bson.D{
			{Key: "movie.id", Value: 1}, {Key: "movie.title", Value: 1}, {Key: "theatre", Value: 1},
			{Key: "starts_at", Value: 1}, {Key: "currency", Value: 1}, {Key: "cancelled_at", Value: 1},
		}))
	if err != nil {
		return nil, fmt.Errorf("mongo: film shows: %w", err)
	}
	var shows []showDoc
	if err := cur.All(ctx, &shows); err != nil {
		return nil, fmt.Errorf("mongo: film shows: %w", err)
	}
	sums := make(map[string]booking.TicketSums, len(shows))
	for i := 0; i < len(shows); i += reportBatch {
		ids := make([]string, 0, reportBatch)
		for _, d := range shows[i:min(i+reportBatch, len(shows))] {
			ids = append(ids, d.ID)
		}
		cur, err := s.col(colBookings).Aggregate(ctx, filmBookingsPipeline(ids))
		if err != nil {
			return nil, fmt.Errorf("mongo: film shows: bookings: %w", err)
		}
		var rows []struct {
			ShowID     string `bson:"_id"`
			Admissions int    `bson:"admissions"`
			Comps      int    `bson:"comps"`
			Gross      int64  `bson:"gross"`
			Tax        int64  `bson:"tax"`
		}
		if err := cur.All(ctx, &rows); err != nil {
			return nil, fmt.Errorf("mongo: film shows: bookings: %w", err)
		}
		for _, r := range rows {
			sums[r.ShowID] = booking.TicketSums{Admissions: r.Admissions, Comps: r.Comps, Gross: booking.Money(r.Gross), Tax: booking.Money(r.Tax)}
		}
		// The bookings a process of an older release inserted after
		// 0034_booking_report ran, without report, which the aggregation
		// counted as 0 (rare: UpdatePaymentBooking gives them their
		// report as they are confirmed). show_state_report finds them by
		// null bounds; only they are fetched.
		cur, err = s.col(colBookings).Find(ctx, unreportedBookings(ids), options.Find().SetProjection(reportSource))
		if err != nil {
			return nil, fmt.Errorf("mongo: film shows: bookings without report: %w", err)
		}
		var unreported []bookingDoc
		if err := cur.All(ctx, &unreported); err != nil {
			return nil, fmt.Errorf("mongo: film shows: bookings without report: %w", err)
		}
		addUnreported(sums, unreported)
	}
	movies, theatres := map[string]catalogMovie{}, map[string]catalogTheatre{}
	var movieIDs, theatreIDs bson.A
	for f := range seen {
		movieIDs, theatreIDs = append(movieIDs, f.movie), append(theatreIDs, f.theatre)
	}
	if err := readByIDs(ctx, s.col(colMovies), movieIDs, func(d catalogMovie) { movies[d.ID] = d }); err != nil {
		return nil, fmt.Errorf("mongo: film shows: movies: %w", err)
	}
	if err := readByIDs(ctx, s.col(colTheatres), theatreIDs, func(d catalogTheatre) { theatres[d.ID] = d }); err != nil {
		return nil, fmt.Errorf("mongo: film shows: theatres: %w", err)
	}
	out := make([]booking.ShowSales, 0, len(shows))
	for _, d := range shows {
		v := booking.ShowSales{
			ShowID: d.ID, MovieID: d.Movie.ID, Title: d.Movie.Title, TheatreID: d.Theatre.ID, Theatre: d.Theatre.Name,
			TimeZone: d.Theatre.TimeZone, Currency: d.Currency, StartsAt: fromNanos(d.StartsAt), Cancelled: d.CancelledAt != 0,
			Sums: sums[d.ID],
		}
		if m, ok := movies[d.Movie.ID]; ok {
			v.Title, v.Rent = m.Title, m.Rent
		}
		if th, ok := theatres[d.Theatre.ID]; ok {
			v.Theatre = th.Name
			if th.TimeZone != "" {
				v.TimeZone = th.TimeZone
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// filmBookingsPipeline sums the confirmed bookings of each of showIDs as
// the film report counts them, from show_state_report alone.
func filmBookingsPipeline(showIDs []string) mongo.Pipeline {
	return mongo.Pipeline{
		{{Key: "$match", Value: bson.D{
			{Key: "show_id", Value: bson.D{{Key: "$in", Value: showIDs}}},
			{Key: "state", Value: string(booking.BookingConfirmed)},
		}}},
		{{Key: "$project", Value: bson.D{
			{Key: "_id", Value: 0}, {Key: "show_id", Value: 1},
			{Key: "report.admissions", Value: 1}, {Key: "report.comps", Value: 1},
			{Key: "report.gross", Value: 1}, {Key: "report.tax", Value: 1},
		}}},
		{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: "$show_id"},
			{Key: "admissions", Value: bson.D{{Key: "$sum", Value: "$report.admissions"}}},
			{Key: "comps", Value: bson.D{{Key: "$sum", Value: "$report.comps"}}},
			{Key: "gross", Value: bson.D{{Key: "$sum", Value: "$report.gross"}}},
			{Key: "tax", Value: bson.D{{Key: "$sum", Value: "$report.tax"}}},
		}}},
	}
}

// noReport matches the bookings stored without report: before
// 0034_booking_report, or by a process of an older release since.
func noReport() bson.D {
	return bson.D{{Key: "report", Value: bson.D{{Key: "$exists", Value: false}}}}
}

// reportSource projects what a booking's sums are worked out from
// (booking.Booking.Sums: its tickets or, without them, its amount shared
// over its seats), and its show.
var reportSource = bson.D{{Key: "show_id", Value: 1}, {Key: "seat_ids", Value: 1}, {Key: "amount", Value: 1}, {Key: "tickets", Value: 1}}

// unreportedBookings matches the confirmed bookings of showIDs stored
// without report, through show_state_report (report.admissions absent is
// its null bound).
func unreportedBookings(showIDs []string) bson.D {
	return bson.D{
		{Key: "show_id", Value: bson.D{{Key: "$in", Value: showIDs}}},
		{Key: "state", Value: string(booking.BookingConfirmed)},
		{Key: "report.admissions", Value: bson.D{{Key: "$exists", Value: false}}},
	}
}

// addUnreported adds the sums of each of docs, bookings stored without
// report, to its show's in sums.
func addUnreported(sums map[string]booking.TicketSums, docs []bookingDoc) {
	for _, d := range docs {
		sums[d.ShowID] = sums[d.ShowID].Add(d.booking().Sums())
	}
}

// salesBookingsFilter selects the bookings of q: confirmed in the range
// (bookingsConfirmedIndex), or refunded in it (bookingsRefundedIndex).
// confirmed_at is 0 for a booking never confirmed, below any range.
func salesBookingsFilter(q booking.SalesQuery) bson.D {
	// From 1 at least: 0 is "never", which no range covers.
	span := bson.D{{Key: "$gte", Value: max(q.From.UnixNano(), 1)}, {Key: "$lt", Value: q.To.UnixNano()}}
	filter := bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "confirmed_at", Value: span}},
		bson.D{{Key: "refunded_at", Value: span}, {Key: "state", Value: string(booking.BookingRefunded)}},
	}}}
	if q.ShowID != "" {
		filter = append(filter, bson.E{Key: "show_id", Value: q.ShowID})
	}
	return filter
}

// readByIDs decodes each document of col whose _id is in ids into a T and
// hands it to each.
func readByIDs[T any](ctx context.Context, col *mongo.Collection, ids bson.A, each func(T)) error {
	if len(ids) == 0 {
		return nil
	}
	cur, err := col.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return err
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		var d T
		if err := cur.Decode(&d); err != nil {
			return err
		}
		each(d)
	}
	return cur.Err()
}

// SalesBookings reads the sales report's bookings
// (booking.SalesReportReader): the bookings confirmed in the range or
// refunded in it, by one $or whose branches use the confirmed_at and
// refunded_at indexes, then their shows', theatres' and payments' fields
// by _id.
func (s *Store) SalesBookings(ctx context.Context, q booking.SalesQuery) ([]booking.BookingSale, error) {
	cur, err := s.col(colBookings).Find(ctx, salesBookingsFilter(q), options.Find().SetProjection(bson.D{
		{Key: "show_id", Value: 1}, {Key: "payment_id", Value: 1}, {Key: "seat_ids", Value: 1}, {Key: "amount", Value: 1},
		{Key: "currency", Value: 1}, {Key: "state", Value: 1}, {Key: "tickets", Value: 1}, {Key: "channel", Value: 1},
		{Key: "method", Value: 1}, {Key: "confirmed_at", Value: 1}, {Key: "refunded_at", Value: 1},
	}))
	if err != nil {
		return nil, fmt.Errorf("mongo: sales bookings: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: sales bookings: %w", err)
	}
	if len(docs) == 0 {
		return []booking.BookingSale{}, nil
	}
	var showIDs, paymentIDs bson.A
	seenShow := map[string]bool{}
	for _, d := range docs {
		if !seenShow[d.ShowID] {
			seenShow[d.ShowID] = true
			showIDs = append(showIDs, d.ShowID)
		}
		paymentIDs = append(paymentIDs, d.PaymentID)
	}
	shows := map[string]showDoc{}
	var theatreIDs bson.A
	seenTheatre := map[string]bool{}
	for i := 0; i < len(showIDs); i += reportBatch {
		err := readByIDs(ctx, s.col(colShows), showIDs[i:min(i+reportBatch, len(showIDs))], func(d showDoc) {
			shows[d.ID] = d
			if !seenTheatre[d.Theatre.ID] {
				seenTheatre[d.Theatre.ID] = true
				theatreIDs = append(theatreIDs, d.Theatre.ID)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("mongo: sales bookings: shows: %w", err)
		}
	}
	theatres := map[string]catalogTheatre{}
	if err := readByIDs(ctx, s.col(colTheatres), theatreIDs, func(d catalogTheatre) { theatres[d.ID] = d }); err != nil {
		return nil, fmt.Errorf("mongo: sales bookings: theatres: %w", err)
	}
	providers := map[string]string{}
	for i := 0; i < len(paymentIDs); i += reportBatch {
		err := readByIDs(ctx, s.col(colPayments), paymentIDs[i:min(i+reportBatch, len(paymentIDs))], func(d paymentDoc) { providers[d.ID] = d.Provider })
		if err != nil {
			return nil, fmt.Errorf("mongo: sales bookings: payments: %w", err)
		}
	}
	out := make([]booking.BookingSale, 0, len(docs))
	for _, d := range docs {
		v := booking.SaleOf(d.booking())
		v.Provider = providers[d.PaymentID]
		if sh, ok := shows[d.ShowID]; ok {
			v.TheatreID, v.Theatre, v.TimeZone = sh.Theatre.ID, sh.Theatre.Name, sh.Theatre.TimeZone
			if th, ok := theatres[sh.Theatre.ID]; ok {
				v.Theatre = th.Name
				if th.TimeZone != "" {
					v.TimeZone = th.TimeZone
				}
			}
		}
		out = append(out, v)
	}
	return out, nil
}
