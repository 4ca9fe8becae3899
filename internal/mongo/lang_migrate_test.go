package mongo

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// TestMigrateGivesBookingsDefaultLang: Migrate gives each booking stored
// without a language (no field, null or "") the store's DEFAULT_LANG and
// keeps a language a booking has; a second Migrate changes nothing, as
// SQLite's Open does after 0040_booking_lang.
func TestMigrateGivesBookingsDefaultLang(t *testing.T) {
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
	DefaultLang("hi")(s)
	doc := func(id, lang string) bson.M {
		d, err := bson.Marshal(toBookingDoc(booking.Booking{ID: id, HoldID: "h" + id, PaymentID: "p" + id, Owner: "o1",
			ShowID: "s1", SeatIDs: []string{"A1"}, Amount: 18000, Currency: "INR", State: booking.BookingConfirmed, Lang: lang}))
		if err != nil {
			t.Fatal(err)
		}
		var m bson.M
		if err := bson.Unmarshal(d, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	missing, null := doc("b1", ""), doc("b2", "")
	delete(missing, "lang")
	null["lang"] = nil
	docs := []any{missing, null, doc("b3", ""), doc("b4", "ta")}
	if _, err := s.col(colBookings).InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		for id, want := range map[string]string{"b1": "hi", "b2": "hi", "b3": "hi", "b4": "ta"} {
			b, err := s.Booking(ctx, id)
			if err != nil || b.Lang != want {
				t.Errorf("booking %s: lang %q, %v; want %s", id, b.Lang, err, want)
			}
		}
	}
}
