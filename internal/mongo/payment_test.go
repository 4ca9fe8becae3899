package mongo

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// TestIsTicketCodeTaken checks the translation of a duplicate key without a
// server: by the error code and the key pattern, never the message.
func TestIsTicketCodeTaken(t *testing.T) {
	writeErr := func(code int, keyPattern bson.D) error {
		raw, err := bson.Marshal(bson.D{{Key: "index", Value: 0}, {Key: "code", Value: code}, {Key: "keyPattern", Value: keyPattern}})
		if err != nil {
			t.Fatal(err)
		}
		// The message names the ticket index in every case: it must not matter.
		msg := "E11000 duplicate key error collection: boxoffice.bookings index: " + ticketCodeIndex
		return fmt.Errorf("update booking: %w", mongo.WriteException{
			WriteErrors: mongo.WriteErrors{{Code: code, Message: msg, Raw: raw}},
		})
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"ticket code index", writeErr(11000, bson.D{{Key: "ticket_code", Value: 1}}), true},
		{"another unique index", writeErr(11000, bson.D{{Key: "hold_id", Value: 1}}), false},
		{"not a duplicate key", writeErr(112, bson.D{{Key: "ticket_code", Value: 1}}), false},
		{"no key pattern", writeErr(11000, nil), false},
		{"not a server error", errors.New("ticket_code"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isTicketCodeTaken(tt.err); got != tt.want {
				t.Errorf("isTicketCodeTaken(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

// TestDocsRoundTrip needs no server: a payment and a booking with every
// field set come back from BSON as they went in.
func TestDocsRoundTrip(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 4, 1, 10, 0, s, 7, time.UTC) }
	p := booking.Payment{
		ID: "p1", HoldID: "h1", BookingID: "b1", Owner: "o1", Amount: 45000, Currency: "INR",
		State: booking.PaymentSucceeded, CreatedAt: at(0),
		CheckoutRef: "cs_1", CheckoutClosedAt: at(1), ChargeRef: "pi_1", LookedUpAt: at(2),
		Tickets: []booking.SeatTicket{
			{SeatID: "A1", Category: "Prime", Type: "child", Price: 15000, Name: "Child", Note: "under 12"},
			{SeatID: "A2", Category: "Prime", Type: "senior", Price: 30000, Name: "Senior", DoorCheck: true},
		},
		ReplacedAt: at(4), Provider: booking.ProviderBoxOffice, Method: booking.MethodCard,
	}
	b := booking.Booking{
		ID: "b1", HoldID: "h1", PaymentID: "p1", Owner: "o1", ShowID: "s1", SeatIDs: []string{"A1", "A2"},
		Amount: 45000, Currency: "INR", State: booking.BookingRefunded, Reason: "late",
		CreatedAt: at(0), UpdatedAt: at(3), RefundID: "re_1", RefundedAt: at(3), RefundedBy: "a@example.com",
		Tickets: p.Tickets, Channel: booking.ChannelBoxOffice, SoldBy: "staff@example.com", Method: booking.MethodCard,
		CardRef: "T-1", CompReason: "x", RefundMethod: booking.MethodCash,
	}
	var pd paymentDoc
	roundTrip(t, toPaymentDoc(p), &pd)
	if diff := cmp.Diff(p, pd.payment()); diff != "" {
		t.Errorf("payment (-want +got):\n%s", diff)
	}
	var bd bookingDoc
	roundTrip(t, toBookingDoc(b), &bd)
	if diff := cmp.Diff(b, bd.booking()); diff != "" {
		t.Errorf("booking (-want +got):\n%s", diff)
	}
	// A booking made without a channel is stored as sold online.
	var od bookingDoc
	roundTrip(t, toBookingDoc(booking.Booking{ID: "b2"}), &od)
	if got := od.booking().Channel; got != booking.ChannelOnline {
		t.Errorf("a booking without a channel is stored as %q, want online", got)
	}
}

// TestOlderDocsDecode needs no server: documents written before the
// provider fields existed decode with those fields zero.
func TestOlderDocsDecode(t *testing.T) {
	var pd paymentDoc
	roundTrip(t, bson.D{
		{Key: "_id", Value: "p1"}, {Key: "hold_id", Value: "h1"}, {Key: "booking_id", Value: "b1"},
		{Key: "owner", Value: "o1"}, {Key: "amount", Value: int64(100)}, {Key: "currency", Value: "INR"},
		{Key: "state", Value: "pending"}, {Key: "created_at", Value: int64(1)},
	}, &pd)
	p := pd.payment()
	if p.CheckoutRef != "" || !p.CheckoutClosedAt.IsZero() || p.ChargeRef != "" || !p.LookedUpAt.IsZero() {
		t.Errorf("older payment = %+v, want the provider fields zero", p)
	}
	if p.Tickets != nil || !p.ReplacedAt.IsZero() {
		t.Errorf("older payment = %+v, want no tickets and not replaced", p)
	}
	// A payment without tickets stores none (omitempty), and replaced_at
	// 0, so that it is in hold_live.
	raw, err := bson.Marshal(toPaymentDoc(p))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bson.Raw(raw).LookupErr("tickets"); err == nil {
		t.Errorf("a payment without tickets stores tickets: %s", bson.Raw(raw))
	}
	if v, err := bson.Raw(raw).LookupErr("replaced_at"); err != nil {
		t.Errorf("a payment not replaced stores no replaced_at (%v), want int64 0", err)
	} else if n, ok := v.Int64OK(); !ok || n != 0 {
		t.Errorf("a payment not replaced stores replaced_at %v, want int64 0", v)
	}
	var bd bookingDoc
	roundTrip(t, bson.D{{Key: "_id", Value: "b1"}, {Key: "state", Value: "refund_due"}}, &bd)
	if b := bd.booking(); b.RefundID != "" || b.State != booking.BookingRefundDue {
		t.Errorf("older booking = %+v, want refund_due without a refund id", b)
	}
	// A booking stored without a channel (by an older release, even after
	// conversion 0032_box_office ran) was sold online.
	if b := bd.booking(); b.Channel != booking.ChannelOnline {
		t.Errorf("older booking's channel %q, want online", b.Channel)
	}
}

func roundTrip(t *testing.T, in, out any) {
	t.Helper()
	raw, err := bson.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := bson.Unmarshal(raw, out); err != nil {
		t.Fatal(err)
	}
}
