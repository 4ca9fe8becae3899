package main

import (
	"context"
	"database/sql"
	"io"
	"strings"
	"testing"
)

// TestMigrateGivesBookingsDefaultLang: a booking stored without a
// language (as a process of an older release stores it) gets DEFAULT_LANG
// when a command opens the store; an unsupported DEFAULT_LANG is a usage
// error, and changes nothing.
func TestMigrateGivesBookingsDefaultLang(t *testing.T) {
	ctx := context.Background()
	dbURL, path := tempDatabaseURL(t)
	if err := run(ctx, []string{"migrate"}, env(map[string]string{"DATABASE_URL": dbURL}), io.Discard, io.Discard); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`PRAGMA foreign_keys = OFF; INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at)
		VALUES ('older', 'h1', 'p1', 'o', 's1', 'A1', 100, 'INR', 'confirmed', 1000, 1000)`); err != nil {
		t.Fatal(err)
	}
	lang := func() string {
		t.Helper()
		var l string
		if err := db.QueryRow(`SELECT lang FROM bookings WHERE id = 'older'`).Scan(&l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	err = run(ctx, []string{"migrate"}, env(map[string]string{"DATABASE_URL": dbURL, "DEFAULT_LANG": "fr"}), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "DEFAULT_LANG") {
		t.Errorf("migrate with DEFAULT_LANG=fr: %v; want a usage error naming it", err)
	}
	if got := lang(); got != "" {
		t.Errorf("a refused migrate gave the booking lang %q", got)
	}
	if err := run(ctx, []string{"migrate"}, env(map[string]string{"DATABASE_URL": dbURL, "DEFAULT_LANG": "ta"}), io.Discard, io.Discard); err != nil {
		t.Fatalf("migrate with DEFAULT_LANG=ta: %v", err)
	}
	if got := lang(); got != "ta" {
		t.Errorf("after migrate with DEFAULT_LANG=ta the older booking has lang %q", got)
	}
}
