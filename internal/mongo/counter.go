package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The box office's reads and writes (SPEC §16).

var _ booking.CounterStore = (*Store)(nil)

func (t *tx) FreeBookedSeats(b booking.Booking) (int, error) {
	res, err := t.s.col(colSeats).UpdateMany(t.ctx, bson.D{
		{Key: "show_id", Value: b.ShowID},
		{Key: "seat_id", Value: bson.D{{Key: "$in", Value: b.SeatIDs}}},
		{Key: "status", Value: string(booking.SeatBooked)},
		{Key: "booking_id", Value: b.ID},
	}, bson.D{{Key: "$set", Value: bson.D{
		{Key: "status", Value: string(booking.SeatAvailable)},
		{Key: "booking_id", Value: ""},
		{Key: "hold_id", Value: ""},
		{Key: "locked_at", Value: int64(0)},
	}}})
	if err != nil {
		return 0, fmt.Errorf("free booked seats: %w", err)
	}
	return int(res.ModifiedCount), nil
}

// BoxOfficeBookings reads the theatre's shows (their ids), then their
// box-office bookings sold or refunded in [from, to), through
// channel_created and channel_refunded.
func (s *Store) BoxOfficeBookings(ctx context.Context, theatreID string, from, to time.Time) ([]booking.Booking, error) {
	cur, err := s.col(colShows).Find(ctx, bson.D{{Key: "theatre.id", Value: theatreID}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: box-office bookings: shows: %w", err)
	}
	var shows []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &shows); err != nil {
		return nil, fmt.Errorf("mongo: box-office bookings: shows: %w", err)
	}
	if len(shows) == 0 {
		return []booking.Booking{}, nil
	}
	ids := make([]string, len(shows))
	for i, sh := range shows {
		ids[i] = sh.ID
	}
	within := bson.D{{Key: "$gte", Value: from.UnixNano()}, {Key: "$lt", Value: to.UnixNano()}}
	// channel is in each clause of the $or, so that each clause is
	// answered by its index (channel_created, channel_refunded): an $or
	// uses indexes only when every clause can.
	boxOffice := bson.E{Key: "channel", Value: string(booking.ChannelBoxOffice)}
	cur, err = s.col(colBookings).Find(ctx, bson.D{
		{Key: "show_id", Value: bson.D{{Key: "$in", Value: ids}}},
		{Key: "$or", Value: bson.A{
			bson.D{boxOffice, {Key: "created_at", Value: within}},
			bson.D{boxOffice, {Key: "refunded_at", Value: within}},
		}},
	}, options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: box-office bookings: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: box-office bookings: %w", err)
	}
	out := make([]booking.Booking, len(docs))
	for i, d := range docs {
		out[i] = d.booking()
	}
	return out, nil
}

// emailCollation compares bookings' emails ignoring case (strength 2:
// letters and accents count, case does not), as the email index is
// built: a query uses an index on strings only with the index's
// collation.
var emailCollation = &options.Collation{Locale: "en", Strength: 2}

// newestFirst is the order of the counter's search by email, its index's
// after the email (TestBookingsByEmailPlan).
var newestFirst = bson.D{{Key: "created_at", Value: -1}, {Key: "_id", Value: -1}}

// emailIndex is bookings' index of the counter's search by email.
const emailIndex = "email_created"

// BookingsByEmail reads the bookings with an email, case ignored, the
// newest first, through email_created (with its collation, the
// equality and the sort both come from the index).
func (s *Store) BookingsByEmail(ctx context.Context, email string, limit int) ([]booking.Booking, error) {
	if email == "" || limit <= 0 {
		return []booking.Booking{}, nil
	}
	cur, err := s.col(colBookings).Find(ctx, bson.D{{Key: "email", Value: email}},
		options.Find().SetCollation(emailCollation).
			SetSort(newestFirst).
			SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("mongo: bookings by email: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: bookings by email: %w", err)
	}
	out := make([]booking.Booking, len(docs))
	for i, d := range docs {
		out[i] = d.booking()
	}
	return out, nil
}
