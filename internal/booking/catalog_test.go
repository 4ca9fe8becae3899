package booking_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

func TestParsePrice(t *testing.T) {
	for in, want := range map[string]booking.Money{"250": 25000, "99.5": 9950, "99.50": 9950, " 1,250 ": 125000, "0": 0, "1,000,000": 100000000, "12,345.50": 1234550} {
		if got, err := booking.ParsePrice(in); err != nil || got != want {
			t.Errorf("ParsePrice(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "1.234", "-5", "1e3", ".5", "5.", "12345678901", "12,50", "1,2,3", ",250", "999999999.99", "1000000.01"} {
		if _, err := booking.ParsePrice(in); err == nil {
			t.Errorf("ParsePrice(%q) succeeded", in)
		}
	}
}

func TestValidateTheatreNamesFields(t *testing.T) {
	err := booking.ValidateTheatre(booking.Theatre{Name: "", City: strings.Repeat("x", 61), TimeZone: "Mars/Olympus"})
	var inv booking.InvalidFields
	if !errors.As(err, &inv) || booking.ErrorCode(err) != booking.EINVALID {
		t.Fatalf("ValidateTheatre = %v, want InvalidFields", err)
	}
	for field, part := range map[string]string{"name": "required", "city": "at most 60", "time_zone": "not a time zone"} {
		if msg := inv.For(field); !strings.Contains(msg, part) {
			t.Errorf("%s: %q does not say %q", field, msg, part)
		}
	}
	if err := booking.ValidateTheatre(booking.Theatre{Name: "Regal", City: "Pune", TimeZone: "Asia/Kolkata", Currency: "INR"}); err != nil {
		t.Errorf("a valid theatre: %v", err)
	}
}

// TestPlanShowTimeZones: a show's start is typed in its theatre's zone and
// stored in UTC, across daylight saving time; a local time the clocks skip
// is refused, one they repeat is the first.
func TestPlanShowTimeZones(t *testing.T) {
	london := booking.Theatre{ID: "t1", Name: "Prince Charles", City: "London", TimeZone: "Europe/London", Currency: "INR"}
	kolkata := booking.Theatre{ID: "t2", Name: "Regal", City: "Pune", TimeZone: "Asia/Kolkata", Currency: "INR"}
	screen := booking.Screen{ID: "s1", TheatreID: "t1", Name: "1", Layout: "C = Classic\nP = Prime\nA  CC\nB  PP\n"}
	movie := booking.Movie{ID: "m1", Title: "Film", RuntimeMin: 100}
	prices := map[string]string{"Classic": "180", "Prime": "250.50"}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		theatre booking.Theatre
		start   string
		want    time.Time
		err     string
	}{
		{"London in winter is UTC", london, "2026-03-28T19:30", time.Date(2026, 3, 28, 19, 30, 0, 0, time.UTC), ""},
		{"London in summer is UTC+1", london, "2026-03-29T19:30", time.Date(2026, 3, 29, 18, 30, 0, 0, time.UTC), ""},
		{"the hour the clocks skip", london, "2026-03-29T01:30", time.Time{}, "does not exist"},
		{"the hour they repeat: the first", london, "2026-10-25T01:30", time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC), ""},
		{"Kolkata is UTC+5:30", kolkata, "2026-06-01T18:00", time.Date(2026, 6, 1, 12, 30, 0, 0, time.UTC), ""},
		{"in the past", kolkata, "2025-12-31T18:00", time.Time{}, "in the future"},
		{"not a time", kolkata, "tomorrow", time.Time{}, "date and a time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			show, seats, err := booking.PlanShow("show1", movie, tt.theatre, screen, tt.start, prices, now)
			if tt.err != "" {
				var inv booking.InvalidFields
				if !errors.As(err, &inv) || !strings.Contains(inv.For("start"), tt.err) {
					t.Fatalf("PlanShow = %v, want the start refused with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("PlanShow: %v", err)
			}
			if !show.StartsAt.Equal(tt.want) || show.StartsAt.Location() != time.UTC {
				t.Errorf("StartsAt %v, want %v in UTC", show.StartsAt, tt.want)
			}
			wantTheatre := tt.theatre
			wantTheatre.Currency = "" // the show's is show.Currency
			if show.ScreenID != "s1" || show.Theatre != wantTheatre || show.Currency != "INR" || len(seats) != 4 {
				t.Errorf("show %+v with %d seats", show, len(seats))
			}
			for _, s := range seats {
				want := booking.Money(18000)
				if s.Category == "Prime" {
					want = 25050
				}
				if s.Price != want || s.ShowID != "show1" {
					t.Errorf("seat %s: price %d show %q, want %d", s.ID, s.Price, s.ShowID, want)
				}
			}
		})
	}
}

// TestParsePriceIn: a price is read in its currency's minor units: a yen
// has none, so "1,500" is 1500 and "15.50" is refused.
func TestParsePriceIn(t *testing.T) {
	for _, tt := range []struct {
		in, currency string
		want         booking.Money
	}{
		{"1,500", "JPY", 1500},
		{"12.50", "EUR", 1250},
		{"12.5", "EUR", 1250},
		{"250", "INR", 25000},
		{"100,000,000", "JPY", 100_000_000},
	} {
		if got, err := booking.ParsePriceIn(tt.in, tt.currency); err != nil || got != tt.want {
			t.Errorf("ParsePriceIn(%q, %s) = %d, %v; want %d", tt.in, tt.currency, got, err, tt.want)
		}
	}
	for _, in := range []string{"15.50", "15.", "1000000000"} {
		if _, err := booking.ParsePriceIn(in, "JPY"); err == nil {
			t.Errorf("ParsePriceIn(%q, JPY) succeeded", in)
		}
	}
}

// TestPlanShowInTheatreCurrency: a show copies its theatre's currency, its
// prices read in that currency's minor units.
func TestPlanShowInTheatreCurrency(t *testing.T) {
	tokyo := booking.Theatre{ID: "t1", Name: "Toho", City: "Tokyo", TimeZone: "Asia/Tokyo", Currency: "JPY"}
	screen := booking.Screen{ID: "s1", Name: "1", Layout: "C = Classic\nA  CC\n"}
	show, seats, err := booking.PlanShow("x", booking.Movie{ID: "m"}, tokyo, screen, "2030-01-01T10:00",
		map[string]string{"Classic": "1,800"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || show.Currency != "JPY" || len(seats) != 2 || seats[0].Price != 1800 {
		t.Fatalf("PlanShow in a JPY theatre = %+v, %+v, %v; want JPY at 1800", show, seats, err)
	}
	tokyo.Currency = "XYZ"
	if err := booking.ValidateTheatre(tokyo); booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(err.Error(), "not a currency") {
		t.Errorf("ValidateTheatre with XYZ = %v, want refused", err)
	}
}

func TestPlanShowNeedsEveryPrice(t *testing.T) {
	theatre := booking.Theatre{ID: "t1", Name: "Regal", City: "Pune", TimeZone: "Asia/Kolkata", Currency: "INR"}
	screen := booking.Screen{ID: "s1", Name: "1", Layout: "C = Classic\nP = Prime\nA  CC\nB  PP\n"}
	_, _, err := booking.PlanShow("x", booking.Movie{ID: "m"}, theatre, screen, "2030-01-01T10:00",
		map[string]string{"Classic": "0", "Prime": "lots"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var inv booking.InvalidFields
	if !errors.As(err, &inv) || !strings.Contains(inv.For("price_Classic"), "more than nothing") || !strings.Contains(inv.For("price_Prime"), "not a price") {
		t.Errorf("PlanShow with bad prices = %v", err)
	}
}
