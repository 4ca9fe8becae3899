package mongo

import (
	"context"

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

// byTicketCode selects a booking through the partial unique ticket_code
// index: the planner uses a partial index only for a query that implies
// its filter, and an equality alone does not imply its $type.
func byTicketCode(code string) bson.D {
	return bson.D{{Key: "ticket_code", Value: bson.D{{Key: "$eq", Value: code}, {Key: "$type", Value: "string"}}}}
}
