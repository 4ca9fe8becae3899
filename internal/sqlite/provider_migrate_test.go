package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestPaymentsMadeBeforeMigration38HaveTheirProvider: an online payment
// of a file made before payments recorded their provider (0038) gets it
// from its checkout reference (SPEC §15, existing data): stripe for a
// Checkout Session, sandbox otherwise; the counter's keeps box_office.
func TestPaymentsMadeBeforeMigration38HaveTheirProvider(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v37.db")
	db := openAtVersion(t, path, 37)
	for _, q := range []string{
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('t1', 'Old Talkies', 'Pune', 'Asia/Kolkata')`,
		`INSERT INTO movies (id, title, rating, runtime_min, language) VALUES ('m1', 'Old Film', 'U', 120, 'Hindi')`,
		`INSERT INTO shows (id, movie_id, theatre_id, currency, starts_at) VALUES ('s1', 'm1', 't1', 'INR', 4102444800000000000)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, state, created_at) VALUES
			('h1', 's1', 'o1', 'A1', 18000, 'INR', 'completed', 1),
			('h2', 's1', 'o2', 'A2', 18000, 'INR', 'completed', 1),
			('h3', 's1', 'o3', 'A3', 18000, 'INR', 'completed', 1),
			('h4', 's1', 'o4', 'A4', 18000, 'INR', 'active', 1)`,
		`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at, checkout_ref, provider, method) VALUES
			('p1', 'h1', 'b1', 'o1', 18000, 'INR', 'succeeded', 1, 'cs_test_a1B2c3D4e5F6', '', ''),
			('p2', 'h2', 'b2', 'o2', 18000, 'INR', 'succeeded', 1, '', '', ''),
			('p3', 'h3', 'b3', 'o3', 18000, 'INR', 'succeeded', 1, '', 'box_office', 'cash'),
			('p4', 'h4', 'b4', 'o4', 18000, 'INR', 'pending', 1, '', '', '')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	for id, want := range map[string]string{"p1": "stripe", "p2": "sandbox", "p3": "box_office", "p4": ""} {
		p, err := s.Payment(ctx, id)
		if err != nil || p.Provider != want {
			t.Errorf("payment %s: provider %q, %v; want %s", id, p.Provider, err, want)
		}
	}
}
