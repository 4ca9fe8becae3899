package web

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestClientAddr (SPEC §12): the client is the right-most address of
// X-Forwarded-For that is not a trusted proxy, walking from the peer
// leftwards; a peer that is not trusted is the client itself.
func TestClientAddr(t *testing.T) {
	for _, tt := range clientAddrCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := ipExtractor(tt.trusted)(tt.request()); got != tt.want {
				t.Errorf("client %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEchoExtractorMissesHopsWithPorts is why clientAddr is ours: Echo's
// ExtractIPFromXFFHeader, trusting the same proxies, gives up on a hop
// with a port (which some load balancers write) and answers the proxy's
// own address, so every client behind it would share one address and one
// per-address budget. When this test fails, Echo's does the job: use it.
func TestEchoExtractorMissesHopsWithPorts(t *testing.T) {
	var disagree []string
	for _, tt := range clientAddrCases {
		trusted := tt.trusted
		if trusted == nil {
			trusted = loopbackOnly
		}
		opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
		for _, p := range trusted {
			opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
		}
		if got := echo.ExtractIPFromXFFHeader(opts...)(tt.request()); got != tt.want {
			disagree = append(disagree, tt.name+": "+got)
		}
	}
	if !slices.ContainsFunc(disagree, func(s string) bool { return strings.HasPrefix(s, "hops with ports and brackets: 10.20.0.2") }) {
		t.Errorf("Echo's extractor now reads hops with ports (it disagrees only on %q): consider it instead of clientAddr", disagree)
	}
}

// clientAddrCases are the client addresses of SPEC §12's rule.
var clientAddrCases = func() []clientAddrCase {
	lb := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.20.0.0/16"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	return []clientAddrCase{
		{name: "no header", peer: "127.0.0.1:5000", want: "127.0.0.1"},
		{name: "behind the loopback proxy", peer: "127.0.0.1:5000", xff: []string{"198.51.100.7"}, want: "198.51.100.7"},
		{name: "a private hop is not trusted by default", peer: "127.0.0.1:5000", xff: []string{"1.2.3.4, 10.0.0.5"}, want: "10.0.0.5"},
		{name: "link-local is not trusted by default", peer: "127.0.0.1:5000", xff: []string{"1.2.3.4, 169.254.1.1"}, want: "169.254.1.1"},
		{name: "an untrusted peer's header is ignored", peer: "198.51.100.7:5000", xff: []string{"1.2.3.4"}, want: "198.51.100.7"},
		{name: "a private peer's header is ignored by default", peer: "10.0.0.5:5000", xff: []string{"1.2.3.4"}, want: "10.0.0.5"},
		{name: "IPv6 loopback peer", peer: "[::1]:5000", xff: []string{"2001:db8::7"}, want: "2001:db8::7"},
		{name: "IPv4-mapped peer", peer: "[::ffff:127.0.0.1]:5000", xff: []string{"198.51.100.7"}, want: "198.51.100.7"},
		{name: "a chain of trusted hops", trusted: lb, peer: "10.20.0.2:80", xff: []string{"6.6.6.6, 198.51.100.7, 10.20.0.9"}, want: "198.51.100.7"},
		{name: "headers repeated are one list", trusted: lb, peer: "10.20.0.2:80", xff: []string{"6.6.6.6, 198.51.100.7", "10.20.0.9"}, want: "198.51.100.7"},
		{name: "trusted IPv6 hops", trusted: lb, peer: "[2001:db8:ffff::1]:80", xff: []string{"2001:db8:1::5, 2001:db8:ffff::2"}, want: "2001:db8:1::5"},
		{name: "hops with ports and brackets", trusted: lb, peer: "10.20.0.2:80", xff: []string{"198.51.100.7:4711, [2001:db8:ffff::2]:443"}, want: "198.51.100.7"},
		{name: "garbage stops the walk at the last hop known", trusted: lb, peer: "10.20.0.2:80", xff: []string{"198.51.100.7, not-an-ip, 10.20.0.9"}, want: "10.20.0.9"},
		{name: "all trusted: the furthest", trusted: lb, peer: "10.20.0.2:80", xff: []string{"10.20.0.8, 10.20.0.9"}, want: "10.20.0.8"},
		{name: "empty entries are skipped", trusted: lb, peer: "10.20.0.2:80", xff: []string{"198.51.100.7, , 10.20.0.9,"}, want: "198.51.100.7"},
		{name: "trusting none ignores the header", trusted: []netip.Prefix{}, peer: "127.0.0.1:5000", xff: []string{"198.51.100.7"}, want: "127.0.0.1"},
	}
}()

type clientAddrCase struct {
	name    string
	trusted []netip.Prefix // nil: the default
	peer    string
	xff     []string
	want    string
}

func (tt clientAddrCase) request() *http.Request {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = tt.peer
	for _, v := range tt.xff {
		r.Header.Add("X-Forwarded-For", v)
	}
	return r
}
