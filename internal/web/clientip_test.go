package web_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"testing"
)

// holdVia holds seat for a new visitor whose request reaches the server
// with X-Forwarded-For xff (the test's connection comes from 127.0.0.1).
func (a *app) holdVia(xff, seat string) response {
	a.t.Helper()
	c := a.client()
	return c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {c.csrf()}, "seat": {seat}},
		"X-Forwarded-For", xff)
}

// seatN is the n-th seat of the test show (0 to 29).
func seatN(n int) string { return fmt.Sprintf("%c%d", 'A'+n/6, n%6+1) }

// The per-address hold limit (ten times HOLD_RATE) counts the address that
// TrustedProxies leads to, and IPv6 addresses by their /64.
func TestHoldRatePerAddress(t *testing.T) {
	tests := []struct {
		name    string
		trusted []netip.Prefix
		xff     func(i int) string // the i-th visitor's X-Forwarded-For
		shared  bool               // whether they all count as one address
	}{
		{
			name: "IPv6 addresses of one /64 are one address",
			xff:  func(i int) string { return fmt.Sprintf("2001:db8:1:2::%x", i+1) },
			// 11 visitors from one /64: the 11th is over ten times HOLD_RATE.
			shared: true,
		},
		{
			name:   "IPv4 addresses are each their own",
			xff:    func(i int) string { return fmt.Sprintf("198.51.100.%d", i+1) },
			shared: false,
		},
		{
			name:   "a public load balancer not trusted is the client",
			xff:    func(i int) string { return fmt.Sprintf("198.51.100.%d, 203.0.113.9", i+1) },
			shared: true,
		},
		{
			name:    "a trusted public load balancer is seen through",
			trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("203.0.113.0/24")},
			xff:     func(i int) string { return fmt.Sprintf("198.51.100.%d, 203.0.113.9", i+1) },
			shared:  false,
		},
		{
			// The default trusts the loopback only: a private hop is a
			// client, whatever it says it relays.
			name:   "a spoofed header behind a private hop is the hop",
			xff:    func(i int) string { return fmt.Sprintf("198.51.100.%d, 10.0.0.5", i+1) },
			shared: true,
		},
		{
			name:   "a header the client wrote itself is seen through only as far as trusted hops",
			xff:    func(i int) string { return fmt.Sprintf("198.51.100.%d, 203.0.113.9, 127.0.0.1", i+1) },
			shared: true,
		},
		{
			name:    "trusting no proxy ignores X-Forwarded-For",
			trusted: []netip.Prefix{},
			xff:     func(i int) string { return fmt.Sprintf("198.51.100.%d", i+1) },
			shared:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, func(o *webOptions) { o.HoldRate, o.TrustedProxies = 1, tt.trusted })
			for i := range 10 {
				wantStatus(t, a.holdVia(tt.xff(i), seatN(i)), http.StatusSeeOther)
			}
			res := a.holdVia(tt.xff(10), seatN(10))
			want := http.StatusSeeOther
			if tt.shared {
				want = http.StatusTooManyRequests
			}
			wantStatus(t, res, want)
		})
	}
	t.Run("another /64 is another address", func(t *testing.T) {
		a := newApp(t, func(o *webOptions) { o.HoldRate = 1 })
		for i := range 10 {
			wantStatus(t, a.holdVia(fmt.Sprintf("2001:db8:1:2::%x", i+1), seatN(i)), http.StatusSeeOther)
		}
		wantStatus(t, a.holdVia("2001:db8:1:3::1", seatN(10)), http.StatusSeeOther)
	})
}
