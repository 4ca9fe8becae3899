package mongo

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// TestMigrateReasonCodes: conversion 0041_reason_codes turns the English
// reasons stored on bookings and payment events into their codes, as
// SQLite's 0041_reason_codes does (booking.LegacyReason); a code and
// unknown text stay as they are.
func TestMigrateReasonCodes(t *testing.T) {
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
	failed := " (A refund failed at the payment provider: card declined; it is due again.)"
	want := map[string]string{
		"show cancelled":              booking.ReasonShowCancelled,
		"The payment was declined.":   booking.ReasonPaymentDeclined,
		"show cancelled" + failed:     "show_cancelled;refund_failed?provider_reason=card+declined",
		"Refunded by hand":            "Refunded by hand",
		booking.ReasonCheckoutExpired: booking.ReasonCheckoutExpired,
		"":                            "",
	}
	var bookings, events []any
	i := 0
	for old := range want {
		i++
		id := string(rune('a' + i))
		bookings = append(bookings, toBookingDoc(booking.Booking{ID: "b" + id, HoldID: "h" + id, PaymentID: "p" + id, Owner: "o",
			ShowID: "s1", SeatIDs: []string{"A1"}, Amount: 100, Currency: "INR", State: booking.BookingRefundDue, Reason: old}))
		events = append(events, eventDoc{ID: "e" + id, PaymentID: "p" + id, Type: "payment.succeeded", Effect: "refund_due", Reason: old})
	}
	if _, err := s.col(colBookings).InsertMany(ctx, bookings); err != nil {
		t.Fatal(err)
	}
	if _, err := s.col(colPaymentEvents).InsertMany(ctx, events); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	for _, col := range []string{colBookings, colPaymentEvents} {
		cur, err := s.col(col).Find(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		var docs []struct {
			ID     string `bson:"_id"`
			Reason string `bson:"reason"`
		}
		if err := cur.All(ctx, &docs); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, d := range docs {
			got[d.Reason] = true
		}
		for old, w := range want {
			if !got[w] {
				t.Errorf("%s: no reason %q after the conversion (of %q); have %v", col, w, old, got)
			}
		}
		if len(docs) != len(want) {
			t.Errorf("%s: %d documents, want %d", col, len(docs), len(want))
		}
	}
}
