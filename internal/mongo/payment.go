package mongo

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// paymentDoc is a payment. The payments collection has a unique index on
// hold_id over payments not replaced (hold_live): one live payment per
// hold. A document written before the provider
// fields existed lacks them and decodes with their zero values.
type paymentDoc struct {
	ID        string `bson:"_id"`
	HoldID    string `bson:"hold_id"`
	BookingID string `bson:"booking_id"`
	Owner     string `bson:"owner"`
	Amount    int64  `bson:"amount"`
	Currency  string `bson:"currency"`
	State     string `bson:"state"`
	CreatedAt int64  `bson:"created_at"`

	CheckoutRef      string `bson:"checkout_ref"`
	CheckoutClosedAt int64  `bson:"checkout_closed_at"` // Unix ns; 0 while the checkout may be open
	ChargeRef        string `bson:"charge_ref"`
	LookedUpAt       int64  `bson:"looked_up_at"` // Unix ns; 0 until looked up

	// CheckoutAttempt numbers the checkouts Pay opened (absent in older
	// documents: 0); CheckoutExpiresAt is when the current one expires
	// (Unix ns; 0 for none).
	CheckoutAttempt   int   `bson:"checkout_attempt"`
	CheckoutExpiresAt int64 `bson:"checkout_expires_at"`

	// Tickets are its seats as sold (SPEC §15; absent in documents made
	// before types, which settle at their amount); ReplacedAt is when a
	// repeated Pay replaced it (Unix ns; 0 while it was not).
	Tickets    []ticketDoc `bson:"tickets,omitempty"`
	ReplacedAt int64       `bson:"replaced_at"`
	// Provider is the online provider's name ("stripe", "sandbox") or
	// booking.ProviderBoxOffice for a sale at the counter, with its
	// Method (SPEC §16). Absent in older documents (conversion
	// 0038_payment_provider gives them theirs) and in those a process of
	// an older release writes after it ran: "".
	Provider string `bson:"provider,omitempty"`
	Method   string `bson:"method,omitempty"`
}

// ticketDoc is one seat of a payment or booking as sold.
type ticketDoc struct {
	SeatID    string `bson:"seat"`
	Category  string `bson:"category"`
	Type      string `bson:"type"`
	Price     int64  `bson:"price"`
	Name      string `bson:"name,omitempty"`
	Note      string `bson:"note,omitempty"`
	DoorCheck bool   `bson:"door_check,omitempty"`
	// Rate is its tax rate fixed at sale (SPEC §17; absent: 0).
	Rate int `bson:"rate,omitempty"`
}

func toTicketDocs(ts []booking.SeatTicket) []ticketDoc {
	if len(ts) == 0 {
		return nil
	}
	out := make([]ticketDoc, len(ts))
	for i, t := range ts {
		out[i] = ticketDoc{SeatID: t.SeatID, Category: t.Category, Type: t.Type, Price: int64(t.Price), Name: t.Name, Note: t.Note, DoorCheck: t.DoorCheck, Rate: int(t.TaxRate)}
	}
	return out
}

func fromTicketDocs(ds []ticketDoc) []booking.SeatTicket {
	if len(ds) == 0 {
		return nil
	}
	out := make([]booking.SeatTicket, len(ds))
	for i, d := range ds {
		out[i] = booking.SeatTicket{SeatID: d.SeatID, Category: d.Category, Type: d.Type, Price: booking.Money(d.Price), Name: d.Name, Note: d.Note, DoorCheck: d.DoorCheck, TaxRate: booking.TaxRate(d.Rate)}
	}
	return out
}

func toPaymentDoc(p booking.Payment) paymentDoc {
	return paymentDoc{
		ID: p.ID, HoldID: p.HoldID, BookingID: p.BookingID, Owner: p.Owner,
		Amount: int64(p.Amount), Currency: p.Currency, State: string(p.State), CreatedAt: nanos(p.CreatedAt),
		CheckoutRef: p.CheckoutRef, CheckoutClosedAt: nanos(p.CheckoutClosedAt),
		ChargeRef: p.ChargeRef, LookedUpAt: nanos(p.LookedUpAt),
		CheckoutAttempt: p.CheckoutAttempt, CheckoutExpiresAt: nanos(p.CheckoutExpiresAt),
		Tickets: toTicketDocs(p.Tickets), ReplacedAt: nanos(p.ReplacedAt),
		Provider: p.Provider, Method: string(p.Method),
	}
}

func (d paymentDoc) payment() booking.Payment {
	return booking.Payment{
		ID: d.ID, HoldID: d.HoldID, BookingID: d.BookingID, Owner: d.Owner,
		Amount: booking.Money(d.Amount), Currency: d.Currency,
		State: booking.PaymentState(d.State), CreatedAt: fromNanos(d.CreatedAt),
		CheckoutRef: d.CheckoutRef, CheckoutClosedAt: fromNanos(d.CheckoutClosedAt),
		ChargeRef: d.ChargeRef, LookedUpAt: fromNanos(d.LookedUpAt),
		CheckoutAttempt: d.CheckoutAttempt, CheckoutExpiresAt: fromNanos(d.CheckoutExpiresAt),
		Tickets: fromTicketDocs(d.Tickets), ReplacedAt: fromNanos(d.ReplacedAt),
		Provider: d.Provider, Method: booking.Method(d.Method),
	}
}

// bookingDoc is a booking.
type bookingDoc struct {
	ID         string   `bson:"_id"`
	HoldID     string   `bson:"hold_id"`
	PaymentID  string   `bson:"payment_id"`
	Owner      string   `bson:"owner"`
	ShowID     string   `bson:"show_id"`
	SeatIDs    []string `bson:"seat_ids"`
	Amount     int64    `bson:"amount"`
	Currency   string   `bson:"currency"`
	State      string   `bson:"state"`
	TicketCode string   `bson:"ticket_code"`
	Reason     string   `bson:"reason"`
	CreatedAt  int64    `bson:"created_at"`
	UpdatedAt  int64    `bson:"updated_at"`
	RefundedAt int64    `bson:"refunded_at"` // Unix ns; 0 until refunded
	RefundedBy string   `bson:"refunded_by"`
	RefundID   string   `bson:"refund_id"`   // absent in older documents: ""
	AdmittedAt int64    `bson:"admitted_at"` // Unix ns; absent or 0 until admitted at the door
	AdmittedBy string   `bson:"admitted_by"`
	Email      string   `bson:"email"`      // absent in older documents: ""
	Key        string   `bson:"access_key"` // absent in older documents: ""
	// Tickets are its seats as sold (SPEC §15); migrateBookingTickets
	// gives older documents the type standard at their seats' prices.
	Tickets []ticketDoc `bson:"tickets,omitempty"`
	// Channel is where it was sold (SPEC §16): the conversion
	// 0032_box_office gives older documents "online". The rest are the
	// counter's sale and refund, absent in online bookings.
	Channel      string `bson:"channel"`
	SoldBy       string `bson:"sold_by,omitempty"`
	Method       string `bson:"method,omitempty"`
	CardRef      string `bson:"card_ref,omitempty"`
	CompReason   string `bson:"comp_reason,omitempty"`
	RefundMethod string `bson:"refund_method,omitempty"`
	// Report is its seats as the film report counts them
	// (booking.Booking.Sums), written when it is inserted, since its
	// tickets never change; 0034_booking_report gives it to older
	// documents.
	Report reportDoc `bson:"report"`
	// ConfirmedAt is when it became confirmed (Unix ns; 0: never), its
	// sale time in the sales report; 0039_confirmed_at gives it to older
	// documents.
	ConfirmedAt int64 `bson:"confirmed_at"`
	// Lang is the language its mails are written in (SPEC §19);
	// migrateBookingLang gives older documents, and those a process of
	// an older release inserts, the store's DEFAULT_LANG.
	Lang string `bson:"lang"`
}

// reportDoc is a booking's booking.TicketSums.
type reportDoc struct {
	Admissions int   `bson:"admissions"`
	Comps      int   `bson:"comps"`
	Gross      int64 `bson:"gross"`
	Tax        int64 `bson:"tax"`
}

func toReportDoc(s booking.TicketSums) reportDoc {
	return reportDoc{Admissions: s.Admissions, Comps: s.Comps, Gross: int64(s.Gross), Tax: int64(s.Tax)}
}

func toBookingDoc(b booking.Booking) bookingDoc {
	d := bookingDoc{
		ID: b.ID, HoldID: b.HoldID, PaymentID: b.PaymentID, Owner: b.Owner,
		ShowID: b.ShowID, SeatIDs: b.SeatIDs, Amount: int64(b.Amount), Currency: b.Currency,
		State: string(b.State), TicketCode: b.TicketCode, Reason: b.Reason,
		CreatedAt: nanos(b.CreatedAt), UpdatedAt: nanos(b.UpdatedAt),
		RefundedAt: nanos(b.RefundedAt), RefundedBy: b.RefundedBy, RefundID: b.RefundID,
		AdmittedAt: nanos(b.AdmittedAt), AdmittedBy: b.AdmittedBy, Email: b.Email, Key: b.Key,
		Tickets: toTicketDocs(b.Tickets),
		Channel: string(b.Channel), SoldBy: b.SoldBy, Method: string(b.Method),
		CardRef: b.CardRef, CompReason: b.CompReason, RefundMethod: string(b.RefundMethod), Report: toReportDoc(b.Sums()),
		ConfirmedAt: nanos(b.ConfirmedAt), Lang: b.Lang,
	}
	if d.Channel == "" {
		d.Channel = string(booking.ChannelOnline)
	}
	return d
}

func (d bookingDoc) booking() booking.Booking {
	channel := booking.Channel(d.Channel)
	if channel == "" {
		// Stored by a process of a release before the box office after
		// conversion 0032_box_office ran: sold online, as SQLite's
		// column default says.
		channel = booking.ChannelOnline
	}
	return booking.Booking{
		ID: d.ID, HoldID: d.HoldID, PaymentID: d.PaymentID, Owner: d.Owner,
		ShowID: d.ShowID, SeatIDs: d.SeatIDs, Amount: booking.Money(d.Amount), Currency: d.Currency,
		State: booking.BookingState(d.State), TicketCode: d.TicketCode, Reason: d.Reason,
		CreatedAt: fromNanos(d.CreatedAt), UpdatedAt: fromNanos(d.UpdatedAt),
		RefundedAt: fromNanos(d.RefundedAt), RefundedBy: d.RefundedBy, RefundID: d.RefundID,
		AdmittedAt: fromNanos(d.AdmittedAt), AdmittedBy: d.AdmittedBy, Email: d.Email, Key: d.Key,
		Tickets: fromTicketDocs(d.Tickets),
		Channel: channel, SoldBy: d.SoldBy, Method: booking.Method(d.Method),
		CardRef: d.CardRef, CompReason: d.CompReason, RefundMethod: booking.Method(d.RefundMethod),
		ConfirmedAt: fromNanos(d.ConfirmedAt), Lang: d.Lang,
	}
}

// eventDoc records a provider event that took effect. Its _id is the
// provider's event id, so the _id index is what makes each event count once.
type eventDoc struct {
	ID         string `bson:"_id"`
	PaymentID  string `bson:"payment_id"`
	Type       string `bson:"type"`
	Effect     string `bson:"effect"`
	Reason     string `bson:"reason"`
	ReceivedAt int64  `bson:"received_at"`
}

// PendingTickets reads the tickets of the hold's latest pending payment
// not replaced (hold_state). Not replaced is replaced_at 0 or, in a
// payment an older release inserted after 0029_payment_replacement had
// run (a rolling deploy), no replaced_at at all: as the payment steps
// decode it, and as SQLite's replaced_at IS NULL reads it.
func (s *Store) PendingTickets(ctx context.Context, holdID string) ([]booking.SeatTicket, error) {
	var d paymentDoc
	err := s.col(colPayments).FindOne(ctx,
		bson.D{
			{Key: "hold_id", Value: holdID}, {Key: "state", Value: string(booking.PaymentPending)},
			{Key: "replaced_at", Value: bson.D{{Key: "$in", Value: bson.A{int64(0), nil}}}},
		},
		options.FindOne().SetSort(bson.D{{Key: "created_at", Value: -1}, {Key: "_id", Value: -1}}),
	).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mongo: pending tickets: %w", err)
	}
	return fromTicketDocs(d.Tickets), nil
}

// Payment returns a payment by id.
func (s *Store) Payment(ctx context.Context, paymentID string) (booking.Payment, error) {
	var d paymentDoc
	if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Decode(&d); err != nil {
		return booking.Payment{}, notFound(err, booking.ErrPaymentNotFound, "payment")
	}
	return d.payment(), nil
}

// Booking returns a booking by id.
func (s *Store) Booking(ctx context.Context, bookingID string) (booking.Booking, error) {
	var d bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byID(bookingID)).Decode(&d); err != nil {
		return booking.Booking{}, notFound(err, booking.ErrBookingNotFound, "booking")
	}
	return d.booking(), nil
}

// ticketCodeIndex is the unique index on bookings' ticket codes.
const ticketCodeIndex = "ticket_code"

// isTicketCodeTaken reports a duplicate key in the ticket code index, told
// by the key pattern the server reports with the write error, not by its
// message.
func isTicketCodeTaken(err error) bool {
	if !mongo.IsDuplicateKeyError(err) {
		return false
	}
	var raws []bson.Raw
	var we mongo.WriteException
	if errors.As(err, &we) {
		for _, e := range we.WriteErrors {
			raws = append(raws, e.Raw)
		}
	}
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		raws = append(raws, ce.Raw)
	}
	for _, raw := range raws {
		if kp, ok := raw.Lookup("keyPattern").DocumentOK(); ok {
			if _, err := kp.LookupErr("ticket_code"); err == nil {
				return true
			}
		}
	}
	return false
}
