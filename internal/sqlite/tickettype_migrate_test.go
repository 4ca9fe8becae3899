package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestShowsMadeBeforeMigration27AreStandard: a show of a file made before
// ticket types (0027) sells the implicit type standard at its seats'
// prices; its theatre has no types, tax 0, and its movie no rent.
func TestShowsMadeBeforeMigration27AreStandard(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v26.db")
	db := openAtVersion(t, path, 26)
	for _, q := range []string{
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('t1', 'Old Talkies', 'Pune', 'Asia/Kolkata')`,
		`INSERT INTO movies (id, title, rating, runtime_min, language) VALUES ('m1', 'Old Film', 'U', 120, 'Hindi')`,
		`INSERT INTO shows (id, movie_id, theatre_id, currency, starts_at) VALUES ('s1', 'm1', 't1', 'INR', 4102444800000000000)`,
		`INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, category, price)
			VALUES ('s1', 'A1', 'A', 1, 0, 0, 'Classic', 18000), ('s1', 'B1', 'B', 1, 1, 0, 'Prime', 25000)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	var stored booking.ShowPrices
	var seats []booking.Seat
	var types []booking.TicketType
	err := s.Atomically(ctx, func() time.Time { return t0 }, func(tx booking.Tx) (err error) {
		if stored, err = tx.ShowPrices("s1"); err != nil {
			return err
		}
		if types, err = tx.TicketTypes("t1"); err != nil {
			return err
		}
		seats, err = tx.AllSeats("s1")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if stored.Stored() || len(types) != 0 {
		t.Fatalf("an old show has a stored table %+v, its theatre types %+v", stored, types)
	}
	booking.SortSeatsByPlace(seats)
	want := booking.ShowPrices{Types: []booking.TicketType{booking.StandardType()}, Cells: booking.PriceTable{
		{Category: "Classic", Type: "standard", Price: 18000}, {Category: "Prime", Type: "standard", Price: 25000}}}
	if diff := cmp.Diff(want, booking.ShowPricesOf(stored, booking.Categories(seats))); diff != "" {
		t.Errorf("the old show's table (-want +got):\n%s", diff)
	}
	if th, err := s.Theatre(ctx, "t1"); err != nil || th.Tax != (booking.TaxRates{}) {
		t.Errorf("old theatre = %+v, %v; want tax 0", th, err)
	}
	if m, err := s.Movie(ctx, "m1"); err != nil || m.Rent != "" {
		t.Errorf("old movie = %+v, %v; want no rent", m, err)
	}
}
