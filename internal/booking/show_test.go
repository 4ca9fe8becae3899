package booking_test

import (
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
