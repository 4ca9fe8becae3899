package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestMigrationLangExistingBookings: the bookings of a file made before
// bookings had a language (0039) get DEFAULT_LANG as the store opens
// (SPEC §15, existing data), and so does one a process of an older
// release stores afterwards, at the next start; a booking with a
// language keeps it.
func TestMigrationLangExistingBookings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v39.db")
	db := openAtVersion(t, path, 39)
	for _, q := range []string{
		`PRAGMA foreign_keys = OFF`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, ticket_code, created_at, updated_at, channel)
			VALUES ('online', 'h1', 'p1', 'o', 's1', 'A1', 100, 'INR', 'confirmed', 'T1', 1000, 9000, 'online'),
			       ('counter', 'h2', 'p2', 'o', 's1', 'A2', 100, 'INR', 'confirmed', 'T2', 2000, 9000, 'box_office')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path, func(o *options) { o.defaultLang = "ta" })
	for _, id := range []string{"online", "counter"} {
		if b, err := s.Booking(ctx, id); err != nil || b.Lang != "ta" {
			t.Errorf("booking %s made before languages: lang %q, %v; want DEFAULT_LANG ta", id, b.Lang, err)
		}
	}
	// An older release's insert (no lang), then a start with another
	// DEFAULT_LANG: only that booking gets it.
	if _, err := s.write.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at)
		VALUES ('older', 'h3', 'p3', 'o', 's1', 'A3', 100, 'INR', 'pending', 3000, 3000)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = reopen(t, path, func(o *options) { o.defaultLang = "hi" })
	for id, want := range map[string]string{"online": "ta", "counter": "ta", "older": "hi"} {
		if b, err := s.Booking(ctx, id); err != nil || b.Lang != want {
			t.Errorf("booking %s after a start with DEFAULT_LANG hi: lang %q, %v; want %s", id, b.Lang, err, want)
		}
	}
}
