package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/labstack/echo/v4"
)

// loopbackOnly is what Options.TrustedProxies nil means, as
// config.DefaultTrustedProxies does: a proxy on the same host.
var loopbackOnly = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// ipExtractor finds the client's address (SPEC §12): the connection's peer
// when it is not a trusted proxy; otherwise the right-most address in
// X-Forwarded-For that is not one, reading from the right and skipping
// trusted ones. Each trusted proxy appends the address it was called from,
// so everything to the left of the nearest untrusted address was written
// by the client and proves nothing: a spoofed header gives no new address.
// Nil trusted means the loopback only; empty trusts none, so the client is
// the peer and X-Forwarded-For is ignored. Ours, not Echo's
// ExtractIPFromXFFHeader: Echo's answers the proxy's own address for a hop
// written with a port (TestEchoExtractorMissesHopsWithPorts).
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if trusted == nil {
		trusted = loopbackOnly
	}
	return func(r *http.Request) string { return clientAddr(r, trusted) }
}

func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, ok := parseAddr(host)
	if !ok {
		return host
	}
	if !isTrusted(addr, trusted) {
		return addr.String()
	}
	xff := r.Header.Values(echo.HeaderXForwardedFor)
	for i := len(xff) - 1; i >= 0; i-- {
		hops := strings.Split(xff[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			hop := strings.TrimSpace(hops[j])
			if hop == "" {
				continue
			}
			a, ok := parseAddr(hop)
			if !ok {
				// A trusted proxy writes addresses: this was written by
				// whoever called the nearest hop we know, so that hop is
				// the client as far as anyone can tell.
				return addr.String()
			}
			addr = a
			if !isTrusted(addr, trusted) {
				return addr.String()
			}
		}
	}
	// Every hop is trusted (a request from inside the proxies' network):
	// the furthest one is the client.
	return addr.String()
}

// parseAddr reads an address as X-Forwarded-For and RemoteAddr carry it:
// bare, in brackets, or with a port (some load balancers add one). An
// IPv4-mapped IPv6 address is its IPv4 address; a zone is dropped.
func parseAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		ap, perr := netip.ParseAddrPort(s)
		if perr != nil {
			return netip.Addr{}, false
		}
		a = ap.Addr()
	}
	return a.Unmap().WithZone(""), true
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// addressKey is the client's address as the per-address limits count it:
// an IPv4 address as it is, an IPv6 address by its /64. A home, an office
// or a phone gets a whole /64 and may use any address in it, so counting
// each address alone would let one client multiply its limit at will.
func addressKey(c echo.Context) string {
	ip := c.RealIP()
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// isLoopbackClient reports whether the client's address (ipExtractor) is
// on this host.
func isLoopbackClient(c echo.Context) bool {
	a, ok := parseAddr(c.RealIP())
	return ok && a.IsLoopback()
}
