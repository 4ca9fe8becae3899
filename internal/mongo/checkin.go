package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// BookingByTicketCode returns the booking with a ticket code, through the
// unique ticket_code index.
func (s *Store) BookingByTicketCode(ctx context.Context, code string) (booking.Booking, error) {
	if code == "" {
		return booking.Booking{}, booking.ErrBookingNotFound
	}
	var d bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byTicketCode(code)).Decode(&d); err != nil {
		return booking.Booking{}, notFound(err, booking.ErrBookingNotFound, "booking by ticket code")
	}
	return d.booking(), nil
}

// AdmitTicket reads the booking and its show, lets booking.Admit decide and
// writes the admission, in one transaction. Two doors admitting one ticket
// at once both write its document: one transaction conflicts, runs again,
// and finds the ticket admitted.
func (s *Store) AdmitTicket(ctx context.Context, code string, dc booking.DoorCheck, by string) (booking.Checkin, error) {
	c, err := inTx(ctx, s, func(ctx context.Context) (booking.Checkin, error) {
		if code == "" {
			return booking.Checkin{}, booking.ErrBookingNotFound
		}
		var d bookingDoc
		if err := s.col(colBookings).FindOne(ctx, byTicketCode(code)).Decode(&d); err != nil {
			return booking.Checkin{}, noDoc(err, booking.ErrBookingNotFound, "read booking")
		}
		var sd showDoc
		if err := s.col(colShows).FindOne(ctx, byID(d.ShowID)).Decode(&sd); err != nil {
			return booking.Checkin{}, noDoc(err, booking.ErrShowNotFound, "read show")
		}
		c, changed := booking.Admit(d.booking(), sd.show(), dc, by)
		if !changed {
			return c, nil
		}
		res, err := s.col(colBookings).UpdateOne(ctx,
			bson.D{{Key: "_id", Value: d.ID}, {Key: "admitted_at", Value: bson.D{{Key: "$in", Value: bson.A{nil, int64(0)}}}}},
			bson.D{{Key: "$set", Value: bson.D{
				{Key: "admitted_at", Value: nanos(c.Booking.AdmittedAt)},
				{Key: "admitted_by", Value: c.Booking.AdmittedBy},
			}}})
		if err != nil {
			return booking.Checkin{}, fmt.Errorf("admit: %w", err)
		}
		if res.MatchedCount != 1 {
			// Cannot happen inside the transaction (the read above saw it
			// unadmitted); refuse rather than report an admission twice.
			return booking.Checkin{}, fmt.Errorf("admit: booking %s changed under the transaction", d.ID)
		}
		return c, nil
	})
	if err != nil {
		return booking.Checkin{}, wrap("admit ticket", err)
	}
	return c, nil
}

// byTicketCode selects a booking through the partial unique ticket_code
// index: the planner uses a partial index only for a query that implies
// its filter, and an equality alone does not imply its $type.
func byTicketCode(code string) bson.D {
	return bson.D{{Key: "ticket_code", Value: bson.D{{Key: "$eq", Value: code}, {Key: "$type", Value: "string"}}}}
}
