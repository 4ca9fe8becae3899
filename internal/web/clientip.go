package web

import (
	"net"
	"net/netip"

	"github.com/labstack/echo/v4"
)

// ipExtractor finds the client's address: the nearest address in
// X-Forwarded-For, reading from the right, that is not a trusted proxy. Nil
// trusted means the loopback, link-local and private ranges (Echo's default,
// and config.DefaultTrustedProxies); empty trusts none, so the client is the
// connection's peer and X-Forwarded-For is ignored.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if trusted == nil {
		return echo.ExtractIPFromXFFHeader()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{
			IP:   p.Addr().AsSlice(),
			Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen()),
		}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
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
