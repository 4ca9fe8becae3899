package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestBookingsMadeBeforeMigration29AreStandard: a booking of a file made
// before seats had types (0029) sells each of its seats as standard at
// its seat's price, in its seat order; a payment made then has no
// tickets and settles at its stored amount.
func TestBookingsMadeBeforeMigration29AreStandard(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v27.db")
	db := openAtVersion(t, path, 27)
	for _, q := range []string{
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('t1', 'Old Talkies', 'Pune', 'Asia/Kolkata')`,
		`INSERT INTO movies (id, title, rating, runtime_min, language) VALUES ('m1', 'Old Film', 'U', 120, 'Hindi')`,
		`INSERT INTO shows (id, movie_id, theatre_id, currency, starts_at) VALUES ('s1', 'm1', 't1', 'INR', 4102444800000000000)`,
		`INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, category, price)
			VALUES ('s1', 'A1', 'A', 1, 0, 0, 'Classic', 18000), ('s1', 'B1', 'B', 1, 1, 0, 'Prime', 25000)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, state, created_at)
			VALUES ('h1', 's1', 'o1', 'B1,A1', 43000, 'INR', 'completed', 1)`,
		`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at)
			VALUES ('p1', 'h1', 'b1', 'o1', 43000, 'INR', 'succeeded', 1)`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, ticket_code, created_at, updated_at)
			VALUES ('b1', 'h1', 'p1', 'o1', 's1', 'B1,A1', 43000, 'INR', 'confirmed', 'ABCD1234', 1, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	b, err := s.Booking(ctx, "b1")
	if err != nil {
		t.Fatal(err)
	}
	want := []booking.SeatTicket{
		{SeatID: "B1", Category: "Prime", Type: "standard", Price: 25000},
		{SeatID: "A1", Category: "Classic", Type: "standard", Price: 18000},
	}
	if diff := cmp.Diff(want, b.Tickets); diff != "" {
		t.Errorf("the old booking's tickets (-want +got):\n%s", diff)
	}
	p, err := s.Payment(ctx, "p1")
	if err != nil || len(p.Tickets) != 0 || p.Amount != 43000 || !p.ReplacedAt.IsZero() {
		t.Errorf("old payment = %+v, %v; want no tickets, its amount, not replaced", p, err)
	}
}

// TestBookingsMadeBeforeMigration32AreOnline: a booking of a file made
// before the box office (0032) was sold online; its payment has no
// provider of the counter's (0037 makes it the sandbox's: it has no
// Checkout Session), and an old hold is not a counter hold.
func TestBookingsMadeBeforeMigration32AreOnline(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v29.db")
	db := openAtVersion(t, path, 29)
	for _, q := range []string{
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('t1', 'Old Talkies', 'Pune', 'Asia/Kolkata')`,
		`INSERT INTO movies (id, title, rating, runtime_min, language) VALUES ('m1', 'Old Film', 'U', 120, 'Hindi')`,
		`INSERT INTO shows (id, movie_id, theatre_id, currency, starts_at) VALUES ('s1', 'm1', 't1', 'INR', 4102444800000000000)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, state, created_at)
			VALUES ('h1', 's1', 'o1', 'A1', 18000, 'INR', 'completed', 1)`,
		`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at)
			VALUES ('p1', 'h1', 'b1', 'o1', 18000, 'INR', 'succeeded', 1)`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, ticket_code, created_at, updated_at)
			VALUES ('b1', 'h1', 'p1', 'o1', 's1', 'A1', 18000, 'INR', 'confirmed', 'ABCD1234', 1, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	b, err := s.Booking(ctx, "b1")
	if err != nil || b.Channel != booking.ChannelOnline || b.SoldBy != "" || b.Method != "" {
		t.Errorf("old booking = %+v, %v; want channel online, no seller or method", b, err)
	}
	p, err := s.Payment(ctx, "p1")
	if err != nil || p.Provider != "sandbox" || p.Method != "" {
		t.Errorf("old payment = %+v, %v; want the sandbox's, no method of the counter's", p, err)
	}
	h, err := s.Hold(ctx, "h1")
	if err != nil || h.Counter {
		t.Errorf("old hold = %+v, %v; want not a counter hold", h, err)
	}
}
