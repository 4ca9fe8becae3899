package sqlite

import (
	"context"
	"database/sql"

	"boxoffice/internal/booking"
)

const bookingColumns = `id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state,
	ticket_code, reason, created_at, updated_at, refunded_at, refunded_by, refund_id, admitted_at, admitted_by, email, access_key, tickets,
	channel, sold_by, method, card_ref, comp_reason, refund_method, confirmed_at, lang`

func scanBooking(r scanner) (booking.Booking, error) {
	var (
		b                    booking.Booking
		seatIDs              string
		createdAt, updatedAt sql.NullInt64
		refundedAt           sql.NullInt64
		admittedAt           sql.NullInt64
		confirmedAt          sql.NullInt64
		tickets              string
	)
	err := r.Scan(&b.ID, &b.HoldID, &b.PaymentID, &b.Owner, &b.ShowID, &seatIDs, &b.Amount, &b.Currency,
		&b.State, &b.TicketCode, &b.Reason, &createdAt, &updatedAt, &refundedAt, &b.RefundedBy, &b.RefundID,
		&admittedAt, &b.AdmittedBy, &b.Email, &b.Key, &tickets,
		&b.Channel, &b.SoldBy, &b.Method, &b.CardRef, &b.CompReason, &b.RefundMethod, &confirmedAt, &b.Lang)
	if err != nil {
		return b, err
	}
	b.SeatIDs, b.CreatedAt, b.UpdatedAt = splitIDs(seatIDs), fromNanos(createdAt), fromNanos(updatedAt)
	b.RefundedAt, b.AdmittedAt, b.ConfirmedAt = fromNanos(refundedAt), fromNanos(admittedAt), fromNanos(confirmedAt)
	b.Tickets, err = decodeTickets(tickets)
	return b, err
}

func getBooking(ctx context.Context, q rowQuerier, bookingID string) (booking.Booking, error) {
	b, err := scanBooking(q.QueryRowContext(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE id = ?`, bookingID))
	return b, notFound(err, booking.ErrBookingNotFound)
}

func insertBooking(ctx context.Context, tx *sql.Tx, b booking.Booking) error {
	tickets, err := encodeTickets(b.Tickets)
	if err != nil {
		return err
	}
	// The sums the film report reads (0034_reports.sql): its tickets
	// never change after this insert. A booking has a seat, so admissions
	// or comps is above 0 (both 0 is an older release's insert, which
	// 0036's trigger gives its sums).
	sums := b.Sums()
	_, err = tx.ExecContext(ctx, `INSERT INTO bookings (`+bookingColumns+`, admissions, comps, gross, tax)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, ?,?,?,?)`,
		b.ID, b.HoldID, b.PaymentID, b.Owner, b.ShowID, joinIDs(b.SeatIDs), int64(b.Amount), b.Currency,
		b.State, b.TicketCode, b.Reason, nanos(b.CreatedAt), nanos(b.UpdatedAt), nanos(b.RefundedAt), b.RefundedBy, b.RefundID,
		nanos(b.AdmittedAt), b.AdmittedBy, b.Email, b.Key, tickets,
		channelOf(b), b.SoldBy, b.Method, b.CardRef, b.CompReason, b.RefundMethod, nanos(b.ConfirmedAt), b.Lang,
		sums.Admissions, sums.Comps, int64(sums.Gross), int64(sums.Tax))
	return err
}

// Booking returns a booking by id.
func (s *Store) Booking(ctx context.Context, bookingID string) (booking.Booking, error) {
	b, err := getBooking(ctx, s.read, bookingID)
	return b, wrapErr("booking", err)
}

// BookingByTicketCode returns the booking with a ticket code, through
// bookings_ticket_code.
func (s *Store) BookingByTicketCode(ctx context.Context, code string) (booking.Booking, error) {
	if code == "" {
		return booking.Booking{}, booking.ErrBookingNotFound
	}
	b, err := bookingByTicketCode(ctx, s.read, code)
	return b, wrapErr("booking by ticket code", err)
}

// bookingByTicketCode reads the booking with a ticket code, through
// bookings_ticket_code.
func bookingByTicketCode(ctx context.Context, q rowQuerier, code string) (booking.Booking, error) {
	b, err := scanBooking(q.QueryRowContext(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE ticket_code = ?`, code))
	return b, notFound(err, booking.ErrBookingNotFound)
}

// channelOf is b's channel as stored: a booking made without one was sold
// online.
func channelOf(b booking.Booking) booking.Channel {
	if b.Channel == "" {
		return booking.ChannelOnline
	}
	return b.Channel
}
