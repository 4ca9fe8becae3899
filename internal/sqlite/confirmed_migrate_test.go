package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestConfirmedAtBeforeMigration39: bookings of a file made before
// confirmed_at (0039) get the instant they became confirmed: a counter
// sale its creation, an online booking its booked event's, one whose
// event was pruned but that has a ticket code its creation; a booking
// never confirmed none.
func TestConfirmedAtBeforeMigration39(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v38.db")
	db := openAtVersion(t, path, 38)
	for _, q := range []string{
		`PRAGMA foreign_keys = OFF`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, ticket_code, created_at, updated_at, channel)
			VALUES ('counter', 'h1', 'p1', 'o', 's1', 'A1', 100, 'INR', 'refunded', 'T1', 1000, 9000, 'box_office'),
			       ('online', 'h2', 'p2', 'o', 's1', 'A2', 100, 'INR', 'refunded', 'T2', 2000, 9000, 'online'),
			       ('pruned', 'h3', 'p3', 'o', 's1', 'A3', 100, 'INR', 'confirmed', 'T3', 3000, 9000, 'online'),
			       ('late', 'h4', 'p4', 'o', 's1', 'A4', 100, 'INR', 'refunded', '', 4000, 9000, 'online'),
			       ('failed', 'h5', 'p5', 'o', 's1', 'A5', 100, 'INR', 'failed', '', 5000, 9000, 'online')`,
		`INSERT INTO payment_events (id, payment_id, type, effect, received_at)
			VALUES ('e1', 'p2', 'payment.succeeded', 'booked', 2500),
			       ('e2', 'p4', 'payment.succeeded', 'refund_due', 4500)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	for id, want := range map[string]int64{"counter": 1000, "online": 2500, "pruned": 3000, "late": 0, "failed": 0} {
		b, err := s.Booking(ctx, id)
		var wantAt time.Time
		if want != 0 {
			wantAt = time.Unix(0, want).UTC()
		}
		if err != nil || !b.ConfirmedAt.Equal(wantAt) {
			t.Errorf("booking %s confirmed at %v, %v; want %v", id, b.ConfirmedAt, err, wantAt)
		}
	}
}
