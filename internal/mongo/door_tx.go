package mongo

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// The door's reads and writes (booking.DoorTx).

func (t *tx) BookingByTicket(code string) (booking.Booking, error) {
	var d bookingDoc
	if err := t.s.col(colBookings).FindOne(t.ctx, byTicketCode(code)).Decode(&d); err != nil {
		return booking.Booking{}, noDoc(err, booking.ErrBookingNotFound, "read booking")
	}
	return d.booking(), nil
}

// SetBookingAdmitted writes the admission of a booking not yet admitted.
// Two doors admitting one ticket at once both write its document: one
// transaction conflicts, runs again, and finds the ticket admitted.
func (t *tx) SetBookingAdmitted(b booking.Booking) error {
	res, err := t.s.col(colBookings).UpdateOne(t.ctx,
		bson.D{{Key: "_id", Value: b.ID}, {Key: "admitted_at", Value: bson.D{{Key: "$in", Value: bson.A{nil, int64(0)}}}}},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: "admitted_at", Value: nanos(b.AdmittedAt)},
			{Key: "admitted_by", Value: b.AdmittedBy},
		}}})
	if err != nil {
		return fmt.Errorf("admit: %w", err)
	}
	if res.MatchedCount != 1 {
		// Cannot happen inside the transaction (the step read it
		// unadmitted); refuse rather than report an admission twice.
		return fmt.Errorf("admit: booking %s changed under the transaction", b.ID)
	}
	return nil
}
