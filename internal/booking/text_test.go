package booking_test

import (
	"testing"

	"boxoffice/internal/booking"
)

func TestRefusedRune(t *testing.T) {
	for _, s := range []string{"a\x00b", "\x7f", "\u0085", "ab\u202e", "\u2066x", "x\u200e", "\u061c", "bad \xff byte"} {
		if _, _, found := booking.RefusedRune(s); !found {
			t.Errorf("RefusedRune(%+q) found nothing", s)
		}
	}
	for _, s := range []string{"Regal Cinema", "बुकिंग", "Ağır", "കേരള\u200d", "عربي"} {
		if r, _, found := booking.RefusedRune(s); found {
			t.Errorf("RefusedRune(%+q) refuses %U", s, r)
		}
	}
	if _, _, found := booking.RefusedRune("line\none\ttab", '\n', '\t'); found {
		t.Error("RefusedRune refuses a character it was told to allow")
	}
}

func TestDottedDomain(t *testing.T) {
	for _, d := range []string{"example.com", "mail.example.co.in", "बुकिंग.भारत", "x-y.io", "1und1.de"} {
		if !booking.DottedDomain(d) {
			t.Errorf("DottedDomain(%q) = false", d)
		}
	}
	for _, d := range []string{"[127.0.0.1]", "127.0.0.1", "[ipv6:::1]", "localhost", "a..b", ".a.b", "a.b.", "-a.b", "a-.b", "a_b.com", "a b.com"} {
		if booking.DottedDomain(d) {
			t.Errorf("DottedDomain(%q) = true", d)
		}
	}
}
