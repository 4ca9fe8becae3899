package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/payment"
	"boxoffice/internal/web"
)

func TestCSRF(t *testing.T) {
	a := newApp(t)
	c := a.client()
	tok := c.csrf()
	path := "/shows/" + testShowID + "/holds"
	tests := []struct {
		name   string
		form   url.Values
		header []string
		want   int
	}{
		{"no token", url.Values{"seat": {"A1"}}, nil, http.StatusForbidden},
		{"wrong token", url.Values{"seat": {"A1"}, "_csrf": {"x" + tok}}, nil, http.StatusForbidden},
		{"wrong header", url.Values{"seat": {"A1"}}, []string{"X-CSRF-Token", "nope"}, http.StatusForbidden},
		{"form field", url.Values{"seat": {"A1"}, "_csrf": {tok}}, nil, http.StatusSeeOther},
		{"header", url.Values{"seat": {"A2"}}, []string{"X-CSRF-Token", tok}, http.StatusSeeOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantStatus(t, c.post(path, tt.form, tt.header...), tt.want)
		})
	}
	// Every state-changing route of the table but the signed callbacks:
	// no token, a wrong one, another visitor's, and one sent with no
	// cookie at all are each 403.
	other := a.client()
	other.csrf()
	exempt := map[string]bool{payment.CallbackPath: true, payment.StripeWebhookPath: true}
	for _, p := range postRoutes(t, a) {
		if exempt[p] {
			continue
		}
		wantStatus(t, c.post(p, url.Values{"seat": {"B1"}}), http.StatusForbidden)
		wantStatus(t, c.post(p, url.Values{"seat": {"B1"}, "_csrf": {"x" + tok}}), http.StatusForbidden)
		wantStatus(t, other.post(p, url.Values{"seat": {"B1"}, "_csrf": {tok}}), http.StatusForbidden)
		wantStatus(t, a.client().post(p, url.Values{"seat": {"B1"}, "_csrf": {tok}}), http.StatusForbidden)
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	a := newApp(t)
	c := a.client()
	home := c.get("/")
	css := regexp.MustCompile(`href="(/static/[^"]+/css/app\.css)"`).FindStringSubmatch(home.body)
	if css == nil {
		t.Fatal("home page links no hashed stylesheet")
	}
	responses := map[string]response{
		"home":       home,
		"seat map":   c.get("/shows/" + testShowID),
		"fragment":   c.get("/shows/" + testShowID + "/seats"),
		"not found":  c.get("/nope"),
		"csrf 403":   c.post("/shows/"+testShowID+"/holds", url.Values{"seat": {"A1"}}),
		"hold 303":   c.hold("A1"),
		"static":     c.get(css[1]),
		"healthz":    c.get("/healthz"),
		"readyz":     c.get("/readyz"),
		"metrics":    c.get("/metrics"),
		"method 405": c.do(http.MethodDelete, "/healthz", nil, nil),
	}
	ids := map[string]bool{}
	for name, res := range responses {
		h := res.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") ||
			!strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", name, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no X-Content-Type-Options: nosniff", name)
		}
		if h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: X-Frame-Options %q", name, h.Get("X-Frame-Options"))
		}
		id := h.Get("X-Request-Id")
		if id == "" || ids[id] {
			t.Errorf("%s: X-Request-Id %q missing or reused", name, id)
		}
		ids[id] = true
	}
	// The load balancer's request id is kept.
	if got := c.get("/healthz", "X-Request-Id", "lb-123").Header.Get("X-Request-Id"); got != "lb-123" {
		t.Errorf("X-Request-Id %q, want lb-123 passed through", got)
	}
}

// TestPrintPagesDenyFraming: the pages that print tickets deny framing as
// every response does (SPEC §8): the print page (its owner's, with
// ?print=1, a stranger's 404, no such booking's) and the counter's answer
// to Sell, which prints itself rather than through a frame.
func TestPrintPagesDenyFraming(t *testing.T) {
	a := newCounterApp(t)
	a.clock.Set(testShowStart.Add(-2 * time.Hour))
	staff := a.staffClient(staffEmail, staffPassword)
	sale := staff.mustSell(staff.mustCounterHold("A1", "A2"), url.Values{"method": {"cash"}})
	id := bookingIDOf(sale)
	for name, res := range map[string]response{
		"the answer to Sell":       staff.get(sale),
		"the counter's booking":    staff.get("/admin/boxoffice/bookings/" + id),
		"the print page":           staff.get(printPath(id)),
		"the print page, ?print=1": staff.get(printPath(id) + "?print=1"),
		"a stranger's print page":  a.client().get(printPath(id)),
		"no such booking's":        staff.get(printPath("no-such-booking")),
	} {
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none';") || strings.Contains(csp, "frame-ancestors 'self'") {
			t.Errorf("%s (%d): Content-Security-Policy %q, want frame-ancestors 'none'", name, res.StatusCode, csp)
		}
		if xfo := res.Header.Get("X-Frame-Options"); xfo != "DENY" {
			t.Errorf("%s (%d): X-Frame-Options %q, want DENY", name, res.StatusCode, xfo)
		}
	}
}

func TestNoInlineScriptsOrStyles(t *testing.T) {
	a := newApp(t)
	c := a.client()
	loc := c.mustHold("A1")
	for _, path := range []string{"/", "/shows/" + testShowID, loc, "/nope"} {
		d := c.get(path).doc(t)
		d.Find("script").Each(func(_ int, s *goquery.Selection) {
			if _, ok := s.Attr("src"); !ok || strings.TrimSpace(s.Text()) != "" {
				t.Errorf("%s: inline script", path)
			}
		})
		if d.Find("style, [style]").Length() > 0 {
			t.Errorf("%s: inline style", path)
		}
		if d.Find(`meta[name="htmx-config"]`).Length() != 1 {
			t.Errorf("%s: no htmx-config meta", path)
		}
	}
}

func TestCookieFlags(t *testing.T) {
	for _, tt := range []struct {
		publicURL string
		secure    bool
	}{
		{"http://localhost:8080", false},
		{"https://tickets.example.com", true},
	} {
		t.Run(tt.publicURL, func(t *testing.T) {
			a := newApp(t, func(o *web.Options) { o.PublicURL = tt.publicURL })
			res := a.client().get("/shows/" + testShowID)
			cookies := res.Cookies()
			if len(cookies) == 0 {
				t.Fatal("no session cookie set")
			}
			for _, ck := range cookies {
				if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure != tt.secure {
					t.Errorf("cookie %s: HttpOnly=%v SameSite=%v Secure=%v, want true Lax %v",
						ck.Name, ck.HttpOnly, ck.SameSite, ck.Secure, tt.secure)
				}
			}
		})
	}
}

func TestHome(t *testing.T) {
	a := newApp(t)
	res := a.client().get("/")
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	link := d.Find(`a[data-show-id="` + testShowID + `"]`)
	if link.Length() != 1 || link.AttrOr("href", "") != "/shows/"+testShowID {
		t.Fatalf("no link to the show's seat map:\n%s", res.body)
	}
	text := link.Text()
	for _, want := range []string{"14:00", "₹180–₹250"} {
		if !strings.Contains(text, want) {
			t.Errorf("show link %q does not say %q", text, want)
		}
	}
	if !strings.Contains(d.Text(), "Monsoon Express") || !strings.Contains(d.Text(), "Lalbagh Cinemas") {
		t.Error("home does not name the movie and theatre")
	}
}

func TestHealthAndMetrics(t *testing.T) {
	a := newApp(t)
	c := a.client()
	wantStatus(t, c.get("/healthz"), http.StatusOK)
	wantStatus(t, c.get("/readyz"), http.StatusOK)
	c.mustHold("A1")
	c.hold("A1", "A1")
	m := c.get("/metrics")
	wantStatus(t, m, http.StatusOK)
	for _, want := range []string{
		`boxoffice_holds_total{outcome="held"} 1`,
		`boxoffice_holds_total{outcome="invalid"} 1`,
		`boxoffice_http_requests_total{code="303",method="POST",route="/shows/:showID/holds"} 1`,
		`boxoffice_http_request_duration_seconds_bucket{method="GET",route="/shows/:showID"`,
	} {
		if !strings.Contains(m.body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if len(c.get("/healthz").Cookies()) != 0 {
		t.Error("healthz sets a cookie")
	}
	a.store.Close()
	wantStatus(t, c.get("/readyz"), http.StatusServiceUnavailable)
}

func TestStaticAssets(t *testing.T) {
	a := newApp(t)
	c := a.client()
	home := c.get("/").body
	for _, re := range []string{`href="(/static/[0-9a-f]+/css/app\.css)"`, `src="(/static/[0-9a-f]+/js/requests\.js)"`} {
		m := regexp.MustCompile(re).FindStringSubmatch(home)
		if m == nil {
			t.Fatalf("home has no asset matching %s", re)
		}
		res := c.get(m[1])
		wantStatus(t, res, http.StatusOK)
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("%s: Cache-Control %q", m[1], cc)
		}
		if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "css") && !strings.Contains(ct, "javascript") {
			t.Errorf("%s: Content-Type %q", m[1], ct)
		}
	}
	wantStatus(t, c.get("/static/abc/../../go.mod"), http.StatusNotFound)
	wantStatus(t, c.get("/static/abc/css/nope.css"), http.StatusNotFound)
}

// TestCookieNames: over https the cookies are __Host- cookies (Secure,
// Path=/, no Domain), which a sibling subdomain cannot set; over http they
// keep their plain names.
func TestCookieNames(t *testing.T) {
	for _, tt := range []struct {
		publicURL     string
		csrf, session string
		secure        bool
	}{
		{"http://localhost:8080", "boxoffice_csrf", "boxoffice_session", false},
		{"https://tickets.example.com", "__Host-boxoffice_csrf", "__Host-boxoffice_session", true},
	} {
		t.Run(tt.publicURL, func(t *testing.T) {
			a := newApp(t, func(o *web.Options) { o.PublicURL = tt.publicURL })
			c := a.client()
			c.http.Jar = nil // the test server is plain http: cookies go by hand
			page := c.get("/shows/" + testShowID)
			csrf := cookieNamed(t, page, tt.csrf, tt.secure)
			tok, _ := page.doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
			hold := c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {tok}, "seat": {"A1"}},
				"Cookie", csrf.Name+"="+csrf.Value)
			wantStatus(t, hold, http.StatusSeeOther)
			session := cookieNamed(t, hold, tt.session, tt.secure)
			res := c.get(hold.Header.Get("Location"), "Cookie", session.Name+"="+session.Value)
			wantStatus(t, res, http.StatusOK)
			if tt.secure {
				// A cookie under the plain name is not this app's.
				res := c.get(hold.Header.Get("Location"), "Cookie", "boxoffice_session="+session.Value)
				wantStatus(t, res, http.StatusNotFound)
			}
		})
	}
}

// cookieNamed is the cookie res sets under name, checked for the flags
// every cookie of ours has.
func cookieNamed(t *testing.T, res response, name string, secure bool) *http.Cookie {
	t.Helper()
	for _, ck := range res.Cookies() {
		if ck.Name != name {
			continue
		}
		if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure != secure || ck.Path != "/" || ck.Domain != "" {
			t.Errorf("cookie %s: HttpOnly=%v SameSite=%v Secure=%v Path=%q Domain=%q, want true Lax %v / none",
				name, ck.HttpOnly, ck.SameSite, ck.Secure, ck.Path, ck.Domain, secure)
		}
		return ck
	}
	t.Fatalf("%s %s sets no cookie %s; it sets %v", res.Request.Method, res.Request.URL.Path, name, res.Cookies())
	return nil
}
