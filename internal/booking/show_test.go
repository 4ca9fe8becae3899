package booking_test

import (
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// TestOnSaleStartsFrom: a show starting at OnSaleStartsFrom is on sale,
// one a nanosecond earlier is not, whatever SALES_CLOSE.
func TestOnSaleStartsFrom(t *testing.T) {
	now := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	for _, close := range []time.Duration{-30 * time.Minute, 0, 20 * time.Minute} {
		m := booking.Rules{SalesClose: close}.At(now)
		from := booking.OnSaleStartsFrom(m)
		if sh := (booking.Show{StartsAt: from}); !sh.OnSale(m) {
			t.Errorf("SALES_CLOSE %v: a show starting at %v is not on sale", close, from)
		}
		if sh := (booking.Show{StartsAt: from.Add(-time.Nanosecond)}); sh.OnSale(m) {
			t.Errorf("SALES_CLOSE %v: a show starting just before %v is on sale", close, from)
		}
	}
}

// TestNotOpenYetSaysWhenInTheTheatresZone: the 410 before a show's sales
// opening names the opening in its theatre's zone (SPEC §10), not UTC.
func TestNotOpenYetSaysWhenInTheTheatresZone(t *testing.T) {
	opens := time.Date(2026, 3, 14, 13, 0, 0, 0, time.UTC)
	s := booking.Show{StartsAt: opens.Add(48 * time.Hour), SalesOpenAt: opens, Theatre: booking.Theatre{ID: "t", TimeZone: "Asia/Kolkata"}}
	err := s.CheckOnSale(booking.Moment{Now: opens.Add(-time.Hour)})
	if booking.ErrorCode(err) != booking.EGONE {
		t.Fatalf("before the opening: %v, want gone", err)
	}
	if msg := booking.ErrorMessage(err); !strings.Contains(msg, "Sat 14 Mar 2026 18:30 IST") {
		t.Errorf("the message says %q, want the opening at 18:30 IST", msg)
	}
	if err := s.CheckOnSale(booking.Moment{Now: opens}); err != nil {
		t.Errorf("at the opening: %v", err)
	}
}
