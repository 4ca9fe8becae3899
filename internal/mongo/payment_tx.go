package mongo

import (
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// The payment steps' reads and writes (booking.PaymentTx). Each step writes
// the documents it decides on (the hold, the payment, the booking, the
// seats, the event id), so that a transaction that wrote one of them after
// this one's snapshot makes this one's write fail with WriteConflict, and
// the driver runs the step again on the new state. A concurrent insert of
// the same _id (an event recorded twice at once) is such a conflict too,
// never a duplicate key inside a transaction.

func (t *tx) Payment(paymentID string) (booking.Payment, error) {
	var d paymentDoc
	if err := t.s.col(colPayments).FindOne(t.ctx, byID(paymentID)).Decode(&d); err != nil {
		return booking.Payment{}, noDoc(err, booking.ErrPaymentNotFound, "read payment")
	}
	return d.payment(), nil
}

func (t *tx) PaymentBooking(bookingID string) (booking.Booking, error) {
	var d bookingDoc
	if err := t.s.col(colBookings).FindOne(t.ctx, byID(bookingID)).Decode(&d); err != nil {
		return booking.Booking{}, noDoc(err, booking.ErrBookingNotFound, "read booking")
	}
	return d.booking(), nil
}

func (t *tx) SeenEvent(eventID string) (booking.EventRecord, bool, error) {
	var d eventDoc
	err := t.s.col(colPaymentEvents).FindOne(t.ctx, byID(eventID)).Decode(&d)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return booking.EventRecord{}, false, nil
	case err != nil:
		return booking.EventRecord{}, false, fmt.Errorf("read event: %w", err)
	}
	return booking.EventRecord{
		ID: d.ID, PaymentID: d.PaymentID, Type: d.Type,
		Effect: booking.Effect(d.Effect), Reason: d.Reason, ReceivedAt: fromNanos(d.ReceivedAt),
	}, true, nil
}

// InsertPayment also records the payment's id on its hold document, so
// that two Pays at once, which both insert a payment, both write the hold
// and conflict (the unique index on the payments' hold_id alone would not:
// neither insert sees the other's uncommitted document).
func (t *tx) InsertPayment(p booking.Payment) error {
	_, err := t.s.col(colHolds).UpdateOne(t.ctx, byID(p.HoldID),
		bson.D{{Key: "$set", Value: bson.D{{Key: "payment_id", Value: p.ID}}}})
	if err != nil {
		return fmt.Errorf("link payment to hold: %w", err)
	}
	if _, err := t.s.col(colPayments).InsertOne(t.ctx, toPaymentDoc(p)); err != nil {
		return fmt.Errorf("insert payment: %w", err)
	}
	return nil
}

func (t *tx) InsertBooking(b booking.Booking) error {
	if _, err := t.s.col(colBookings).InsertOne(t.ctx, toBookingDoc(b)); err != nil {
		return fmt.Errorf("insert booking: %w", err)
	}
	return nil
}

// UpdatePayment sets every field a step changes, checkout_closed_at (0
// while open) and checkout_attempt included, so that a payment written
// before those fields existed gets them in the same write and is in
// open_checkouts while its checkout is open.
func (t *tx) UpdatePayment(p booking.Payment) error {
	_, err := t.s.col(colPayments).UpdateOne(t.ctx, byID(p.ID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "state", Value: string(p.State)},
		{Key: "charge_ref", Value: p.ChargeRef},
		{Key: "checkout_ref", Value: p.CheckoutRef},
		{Key: "checkout_closed_at", Value: nanos(p.CheckoutClosedAt)},
		{Key: "looked_up_at", Value: nanos(p.LookedUpAt)},
		{Key: "checkout_attempt", Value: p.CheckoutAttempt},
		{Key: "checkout_expires_at", Value: nanos(p.CheckoutExpiresAt)},
		{Key: "replaced_at", Value: nanos(p.ReplacedAt)},
	}}})
	if err != nil {
		return fmt.Errorf("update payment: %w", err)
	}
	return nil
}

// UpdatePaymentBooking sets the fields of the booking that its payment's
// and refund's steps change, the ones SQLite's adapter updates, and keeps
// the rest: a process of an older release, which knows fewer fields,
// cannot drop a box-office booking's channel and method (SPEC §16). A
// ticket code another booking has, committed before this transaction's
// snapshot, is a duplicate key in the ticket_code index
// (isTicketCodeTaken), which aborts the transaction:
// booking.ErrTicketCodeTaken, not retried by the driver. A booking
// without report gets it in the same transaction.
func (t *tx) UpdatePaymentBooking(b booking.Booking) error {
	d := toBookingDoc(b)
	set := bson.D{
		{Key: "state", Value: d.State}, {Key: "ticket_code", Value: d.TicketCode}, {Key: "reason", Value: d.Reason},
		{Key: "updated_at", Value: d.UpdatedAt}, {Key: "refunded_at", Value: d.RefundedAt},
		{Key: "refunded_by", Value: d.RefundedBy}, {Key: "refund_id", Value: d.RefundID},
		{Key: "admitted_at", Value: d.AdmittedAt}, {Key: "admitted_by", Value: d.AdmittedBy},
		{Key: "email", Value: d.Email}, {Key: "refund_method", Value: d.RefundMethod},
	}
	if d.ConfirmedAt != 0 {
		// Only a known sale time: a booking an older process confirmed
		// keeps its way to migrateConfirmedAt, which gives it one.
		set = append(set, bson.E{Key: "confirmed_at", Value: d.ConfirmedAt})
	}
	if d.Lang != "" {
		// Only a known language: one read before migrateBookingLang gave
		// it the default keeps its way there.
		set = append(set, bson.E{Key: "lang", Value: d.Lang})
	}
	if _, err := t.s.col(colBookings).UpdateOne(t.ctx, byID(b.ID), bson.D{{Key: "$set", Value: set}}); err != nil {
		if isTicketCodeTaken(err) {
			return booking.ErrTicketCodeTaken
		}
		return fmt.Errorf("update booking: %w", err)
	}
	// A booking a process of an older release inserted after
	// 0034_booking_report ran has no report: it gets it here, as it is
	// confirmed (its tickets never change), so that the film report's
	// aggregation counts it (FilmShows counts it meanwhile).
	if _, err := t.s.col(colBookings).UpdateOne(t.ctx, append(byID(b.ID), noReport()...),
		bson.D{{Key: "$set", Value: bson.D{{Key: "report", Value: toReportDoc(b.Sums())}}}}); err != nil {
		return fmt.Errorf("update booking's report: %w", err)
	}
	return nil
}

func (t *tx) BookSeats(h booking.Hold, bookingID string) (int, error) {
	res, err := t.s.col(colSeats).UpdateMany(t.ctx,
		bson.D{
			{Key: "show_id", Value: h.ShowID},
			{Key: "seat_id", Value: bson.D{{Key: "$in", Value: h.SeatIDs}}},
			{Key: "status", Value: bson.D{{Key: "$ne", Value: string(booking.SeatBooked)}}},
		},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: "status", Value: string(booking.SeatBooked)},
			{Key: "booking_id", Value: bookingID},
			{Key: "hold_id", Value: ""},
			{Key: "locked_at", Value: int64(0)},
		}}})
	if err != nil {
		return 0, fmt.Errorf("book seats: %w", err)
	}
	return int(res.MatchedCount), nil
}

func (t *tx) RecordEvent(e booking.EventRecord) error {
	_, err := t.s.col(colPaymentEvents).InsertOne(t.ctx, eventDoc{
		ID: e.ID, PaymentID: e.PaymentID, Type: e.Type,
		Effect: string(e.Effect), Reason: e.Reason, ReceivedAt: nanos(e.ReceivedAt),
	})
	if err != nil {
		return fmt.Errorf("record event: %w", err)
	}
	return nil
}
