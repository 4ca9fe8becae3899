package mongo

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// TestMigrateGivesPaymentsTheirProvider: conversion 0038_payment_provider
// gives each online payment stored without a provider (absent or "") its
// own, as SQLite's 0038_payment_provider does: stripe for a Checkout
// Session's, sandbox otherwise; the counter's keeps box_office.
func TestMigrateGivesPaymentsTheirProvider(t *testing.T) {
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
	pay := func(id string) booking.Payment {
		return booking.Payment{ID: id, HoldID: "h" + id, BookingID: "b" + id, Owner: "o1", Amount: 18000, Currency: "INR",
			State: booking.PaymentSucceeded}
	}
	stripe := pay("p1")
	stripe.CheckoutRef = "cs_test_a1B2c3D4e5F6"
	counter := pay("p3")
	counter.Provider, counter.Method = booking.ProviderBoxOffice, booking.MethodCash
	empty := bson.D{
		{Key: "_id", Value: "p4"}, {Key: "hold_id", Value: "hp4"}, {Key: "booking_id", Value: "bp4"},
		{Key: "owner", Value: "o1"}, {Key: "amount", Value: int64(100)}, {Key: "currency", Value: "INR"},
		{Key: "state", Value: "pending"}, {Key: "created_at", Value: int64(1)}, {Key: "checkout_ref", Value: "cs_live_x"},
		{Key: "replaced_at", Value: int64(0)}, {Key: "provider", Value: ""},
	}
	// Pending without a checkout ref: Stripe's or the sandbox's, not told yet.
	untold := pay("p5")
	untold.State = booking.PaymentPending
	docs := []any{toPaymentDoc(stripe), toPaymentDoc(pay("p2")), toPaymentDoc(counter), empty, toPaymentDoc(untold)}
	if _, err := s.col(colPayments).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	for id, want := range map[string]string{"p1": "stripe", "p2": "sandbox", "p3": "box_office", "p4": "stripe", "p5": ""} {
		p, err := s.Payment(ctx, id)
		if err != nil || p.Provider != want {
			t.Errorf("payment %s: provider %q, %v; want %s", id, p.Provider, err, want)
		}
	}
}
