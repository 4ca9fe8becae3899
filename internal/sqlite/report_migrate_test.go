package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestBookingsBeforeMigration34AreCounted: bookings of a file made before
// the reports (0034) get their seats' sums from their tickets (rate 0, so
// tax 0; a seat sold for 0 a comp), or from their amount when they have
// none, and the film report reads them; theatres get no second rate.
func TestBookingsBeforeMigration34AreCounted(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v33.db")
	db := openAtVersion(t, path, 33)
	for _, q := range []string{
		`PRAGMA foreign_keys = OFF`,
		`INSERT INTO theatres (id, name, city, time_zone, tax_rate) VALUES ('t1', 'Old Talkies', 'Pune', 'Asia/Kolkata', 1800)`,
		`INSERT INTO movies (id, title, rating, runtime_min, language, rent) VALUES ('m1', 'Old Film', 'U', 120, 'Hindi', '50')`,
		`INSERT INTO shows (id, movie_id, movie_title, theatre_id, theatre_name, currency, starts_at, theatre_tz)
			VALUES ('s1', 'm1', 'Old Film', 't1', 'Old Talkies', 'INR', 4102444800000000000, 'Asia/Kolkata')`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at, tickets)
			VALUES ('b1', 'h1', 'p1', 'o', 's1', 'A1,A2', 18000, 'INR', 'confirmed', 1, 1,
			        '[{"seat":"A1","category":"Classic","type":"adult","price":18000},{"seat":"A2","category":"Classic","type":"comp","price":0}]'),
			       ('b2', 'h2', 'p2', 'o', 's1', 'B1,B2,B3', 2, 'INR', 'confirmed', 1, 1, ''),
			       ('b3', 'h3', 'p3', 'o', 's1', 'C1', 25000, 'INR', 'refunded', 1, 1,
			        '[{"seat":"C1","category":"Prime","type":"standard","price":25000}]')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	if th, err := s.Theatre(ctx, "t1"); err != nil || th.Tax != (booking.TaxRates{Rate: 1800}) {
		t.Errorf("old theatre = %+v, %v; want 18 %% and no second rate", th, err)
	}
	for id, want := range map[string]booking.TicketSums{
		"b1": {Admissions: 1, Comps: 1, Gross: 18000},
		"b2": {Admissions: 2, Comps: 1, Gross: 2}, // 2 paise over three seats: 1, 1, 0
		"b3": {Admissions: 1, Gross: 25000},
	} {
		var got booking.TicketSums
		err := s.read.QueryRowContext(ctx, `SELECT admissions, comps, gross, tax FROM bookings WHERE id = ?`, id).
			Scan(&got.Admissions, &got.Comps, &got.Gross, &got.Tax)
		b, berr := s.Booking(ctx, id)
		if err != nil || berr != nil || got != want || b.Sums() != want {
			t.Errorf("booking %s: stored sums %+v (%v), Sums %+v (%v); want %+v", id, got, err, b.Sums(), berr, want)
		}
	}
	start := time.Unix(0, 4102444800000000000)
	shows, err := s.FilmShows(ctx, start.Add(-time.Hour), start.Add(time.Hour))
	want := []booking.ShowSales{{ShowID: "s1", MovieID: "m1", Title: "Old Film", Rent: "50", TheatreID: "t1", Theatre: "Old Talkies",
		TimeZone: "Asia/Kolkata", Currency: "INR", StartsAt: start.UTC(), Sums: booking.TicketSums{Admissions: 3, Comps: 2, Gross: 18002}}}
	if diff := cmp.Diff(want, shows); err != nil || diff != "" {
		t.Errorf("FilmShows: %v (-want +got):\n%s", err, diff)
	}
}

// TestBookingsOfAnOlderReleaseAreCounted: a process of a release before
// 0034 (a rolling deploy, a rollback) inserts bookings without their sums
// into a migrated file; the trigger of 0036 gives them their sums as 0034
// gave the bookings before it, so the film report counts them, and leaves
// a booking inserted with its sums as it is.
func TestBookingsOfAnOlderReleaseAreCounted(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mixed.db")
	s := reopen(t, path)
	db, err := sql.Open("sqlite", dsn(path, defaultOptions, true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		`PRAGMA foreign_keys = OFF`,
		`INSERT INTO theatres (id, name, city, time_zone, tax_rate) VALUES ('t1', 'Old Talkies', 'Pune', 'Asia/Kolkata', 1800)`,
		`INSERT INTO movies (id, title, rating, runtime_min, language, rent) VALUES ('m1', 'Old Film', 'U', 120, 'Hindi', '50')`,
		`INSERT INTO shows (id, movie_id, movie_title, theatre_id, theatre_name, currency, starts_at, theatre_tz)
			VALUES ('s1', 'm1', 'Old Film', 't1', 'Old Talkies', 'INR', 4102444800000000000, 'Asia/Kolkata')`,
		// As a release before 0034 inserts them: no sums.
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at, tickets)
			VALUES ('b1', 'h1', 'p1', 'o', 's1', 'A1,A2', 18000, 'INR', 'confirmed', 1, 1,
			        '[{"seat":"A1","category":"Classic","type":"adult","price":18000},{"seat":"A2","category":"Classic","type":"comp","price":0}]')`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at, tickets)
			VALUES ('b2', 'h2', 'p2', 'o', 's1', 'B1,B2,B3', 2, 'INR', 'pending', 1, 1, '')`,
		`UPDATE bookings SET state = 'confirmed' WHERE id = 'b2'`,
		// As this release inserts one: its sums (tax included) stay.
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at, tickets,
		                       admissions, comps, gross, tax)
			VALUES ('b3', 'h3', 'p3', 'o', 's1', 'C1', 25000, 'INR', 'confirmed', 1, 1,
			        '[{"seat":"C1","category":"Prime","type":"standard","price":25000,"rate":1800}]', 1, 0, 25000, 3814)`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for id, want := range map[string]booking.TicketSums{
		"b1": {Admissions: 1, Comps: 1, Gross: 18000},
		"b2": {Admissions: 2, Comps: 1, Gross: 2}, // 2 paise over three seats: 1, 1, 0
		"b3": {Admissions: 1, Gross: 25000, Tax: 3814},
	} {
		var got booking.TicketSums
		err := s.read.QueryRowContext(ctx, `SELECT admissions, comps, gross, tax FROM bookings WHERE id = ?`, id).
			Scan(&got.Admissions, &got.Comps, &got.Gross, &got.Tax)
		b, berr := s.Booking(ctx, id)
		if err != nil || berr != nil || got != want || b.Sums() != want {
			t.Errorf("booking %s: stored sums %+v (%v), Sums %+v (%v); want %+v", id, got, err, b.Sums(), berr, want)
		}
	}
	start := time.Unix(0, 4102444800000000000)
	shows, err := s.FilmShows(ctx, start.Add(-time.Hour), start.Add(time.Hour))
	want := []booking.ShowSales{{ShowID: "s1", MovieID: "m1", Title: "Old Film", Rent: "50", TheatreID: "t1", Theatre: "Old Talkies",
		TimeZone: "Asia/Kolkata", Currency: "INR", StartsAt: start.UTC(), Sums: booking.TicketSums{Admissions: 4, Comps: 2, Gross: 43002, Tax: 3814}}}
	if diff := cmp.Diff(want, shows); err != nil || diff != "" {
		t.Errorf("FilmShows: %v (-want +got):\n%s", err, diff)
	}
}
