package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// testStart is when every test's clock starts: with parts of a second (and
// of a millisecond), so that a time written to the second, or rounded the
// wrong way, shows.
var testStart = time.Date(2026, 3, 14, 12, 0, 0, 250_000_500, time.UTC)

const testShowID = "show1"

// testShowStart is when testShow starts: ten years after testStart, so
// that the browser tests, which set the clock to the wall clock, still find
// it on sale; its day and time are those of the day after testStart.
var testShowStart = testStart.Add(26*time.Hour).AddDate(10, 0, 0)

// app is a boxoffice web server on a real SQLite store in a temp directory,
// with a clock the test moves and the sandbox payment provider, which calls
// the server back over real HTTP.
type app struct {
	t       testing.TB
	srv     *httptest.Server
	store   *sqlite.Store
	svc     *booking.Service
	clock   *booking.ManualClock
	sandbox *payment.Sandbox
	path    string // the SQLite file
}

// testEmail is the address the tests' moviegoers give at Pay.
const testEmail = "moviegoer@example.com"

// testSecret is PAYMENT_WEBHOOK_SECRET in tests.
const testSecret = "whsec_test_secret"

// newApp starts a server with one show (testShow) and returns it; edit
// changes the options first.
func newApp(t testing.TB, edit ...func(*web.Options)) *app {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db.sqlite")
	a := startApp(t, path, booking.NewManualClock(testStart), edit...)
	show, seats := testShow()
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	return a
}

// sibling starts a second server, as another process would be: its own
// store opened separately on a's file, its own sessions and sandbox; only
// the clock is shared.
func (a *app) sibling(edit ...func(*web.Options)) *app {
	a.t.Helper()
	return startApp(a.t, a.path, a.clock, edit...)
}

func startApp(t testing.TB, path string, clock *booking.ManualClock, edit ...func(*web.Options)) *app {
	t.Helper()
	return startAppWith(t, path, clock, testPolicy, edit...)
}

// testPolicy is the service's policy in tests: holds of 15 minutes, of up
// to 4 seats, no cap per address, single gaps allowed (TestGaps refuses
// them).
var testPolicy = booking.Policy{HoldTTL: 15 * time.Minute, MaxSeats: 4, AllowGaps: true}

// newAppWith is newApp with the service's policy p.
func newAppWith(t testing.TB, p booking.Policy, edit ...func(*web.Options)) *app {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db.sqlite")
	a := startAppWith(t, path, booking.NewManualClock(testStart), p, edit...)
	show, seats := testShow()
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	return a
}

func startAppWith(t testing.TB, path string, clock *booking.ManualClock, p booking.Policy, edit ...func(*web.Options)) *app {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { store.Close() })
	svc := booking.NewService(store, clock, p)

	// The sandbox calls back PUBLIC_URL: the server's address is known
	// before it starts, and it starts with its handler.
	srv := httptest.NewUnstartedServer(nil)
	publicURL := "http://" + srv.Listener.Addr().String()
	sandbox, err := payment.NewSandbox(payment.SandboxOptions{
		PublicURL: publicURL,
		Secret:    []byte(testSecret),
		Payments:  store,
		Logger:    discardLogger(),
		Clock:     clock.Now,
	})
	if err != nil {
		t.Fatalf("NewSandbox: %v", err)
	}
	t.Cleanup(func() { sandbox.Close() }) // after srv.Close: cleanups run last first
	deliverCallbacks(t, sandbox)
	opts := web.Options{
		PublicURL: publicURL,
		Sessions:  store.Sessions().WithClock(clock.Now),
		Location:  time.UTC,
		Logger:    discardLogger(),
		Payments:  sandbox,
		// REPORT_WEEK_START's default.
		ReportWeekStart: time.Friday,
	}
	for _, e := range edit {
		e(&opts)
	}
	if opts.Payments != nil {
		svc.UsePayments(opts.Payments)
	}
	srv.Config.Handler = web.New(svc, opts).Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	return &app{t: t, srv: srv, store: store, svc: svc, clock: clock, sandbox: sandbox, path: path}
}

// testShow is a small hall: rows A–C "Classic" at ₹180 and D–E "Prime" at
// ₹250, six seats a row with an aisle after the third, and a wheelchair
// space at D1.
func testShow() (booking.Show, []booking.Seat) {
	show := booking.Show{
		ID:       testShowID,
		Movie:    booking.Movie{ID: "m1", Title: "Monsoon Express", Rating: "UA", RuntimeMin: 148, Language: "Hindi"},
		Theatre:  booking.Theatre{ID: "t1", Name: "Lalbagh Cinemas", City: "Bengaluru"},
		Screen:   "Audi 1",
		StartsAt: testShowStart,
		Currency: "INR",
	}
	var seats []booking.Seat
	for r, row := range []string{"A", "B", "C", "D", "E"} {
		cat, price := "Classic", booking.Money(18000)
		if r >= 3 {
			cat, price = "Prime", booking.Money(25000)
		}
		for n := 1; n <= 6; n++ {
			col := n - 1
			if n > 3 {
				col++ // the aisle
			}
			kind := booking.KindStandard
			if row == "D" && n == 1 {
				kind = booking.KindWheelchair
			}
			seats = append(seats, booking.Seat{
				ShowID: show.ID, ID: row + itoa(n), Row: row, Number: n,
				GridRow: r, GridCol: col, Category: cat, Price: price, Kind: kind,
				Status: booking.SeatAvailable,
			})
		}
	}
	return show, seats
}

func itoa(n int) string { return strconv.Itoa(n) }

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// client is one browser: its own cookie jar, redirects not followed.
type client struct {
	t    testing.TB
	app  *app
	http *http.Client
}

func (a *app) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: a.t, app: a, http: &http.Client{
		Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// response is a finished request with its body read.
type response struct {
	*http.Response
	body string
}

func (r response) doc(t testing.TB) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if err != nil {
		t.Fatalf("parsing HTML: %v", err)
	}
	return d
}

func (c *client) do(method, path string, body io.Reader, header http.Header) response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.app.srv.URL+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return response{res, string(b)}
}

func (c *client) get(path string, kv ...string) response {
	c.t.Helper()
	return c.do(http.MethodGet, path, nil, headers(kv...))
}

// post sends form as a browser form would; kv are extra headers.
func (c *client) post(path string, form url.Values, kv ...string) response {
	c.t.Helper()
	h := headers(kv...)
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(http.MethodPost, path, strings.NewReader(form.Encode()), h)
}

// csrf loads the seat map page and returns its CSRF token.
func (c *client) csrf() string {
	c.t.Helper()
	d := c.get("/shows/" + testShowID).doc(c.t)
	tok, _ := d.Find(`meta[name="csrf-token"]`).Attr("content")
	if tok == "" {
		c.t.Fatal("no csrf-token meta on the seat map page")
	}
	return tok
}

// hold holds seats with a fresh CSRF token and returns the response.
func (c *client) hold(seats ...string) response {
	c.t.Helper()
	return c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {c.csrf()}, "seat": seats})
}

// mustHold holds seats and returns the hold's path, /holds/{id}.
func (c *client) mustHold(seats ...string) string {
	c.t.Helper()
	res := c.hold(seats...)
	if res.StatusCode != http.StatusSeeOther {
		c.t.Fatalf("hold %v: status %d, want 303; body:\n%s", seats, res.StatusCode, res.body)
	}
	return res.Header.Get("Location")
}

func headers(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func wantStatus(t testing.TB, res response, want int) {
	t.Helper()
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d; body:\n%s", res.Request.Method, res.Request.URL.Path, res.StatusCode, want, res.body)
	}
}

// seatStates maps seat id to data-state in doc.
func seatStates(d *goquery.Document) map[string]string {
	out := map[string]string{}
	d.Find("[data-seat-id]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		out[id], _ = s.Attr("data-state")
	})
	return out
}

// book makes seats of testShow booked the way production does: hold, pay,
// succeed.
func (a *app) book(seats ...string) booking.Booking {
	a.t.Helper()
	return a.bookAt(testShowID, seats...)
}

// bookAt is book for any show.
func (a *app) bookAt(showID string, seats ...string) booking.Booking {
	a.t.Helper()
	ctx := context.Background()
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, showID, owner, seats)
	if err != nil {
		a.t.Fatalf("HoldSeats: %v", err)
	}
	p, _, err := a.svc.StartPayment(ctx, holdID, owner, testEmail)
	if err != nil {
		a.t.Fatalf("StartPayment: %v", err)
	}
	s, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{
		ID: booking.NewID(), Type: booking.EventPaymentSucceeded, PaymentID: p.ID,
		HoldID: holdID, Amount: p.Amount, Currency: p.Currency,
	})
	if err != nil || s.Effect != booking.EffectBooked {
		a.t.Fatalf("SettlePayment: %v, %v", s.Effect, err)
	}
	return s.Booking
}

// wantExpiry fails the test unless attr, a data-expires-at, is want in RFC
// 3339 with milliseconds, rounded up: never before the server's expiry,
// and less than a millisecond after it.
func wantExpiry(t testing.TB, what, attr string, want time.Time) {
	t.Helper()
	got, err := time.Parse(time.RFC3339Nano, attr)
	if err != nil || len(attr) != len("2006-01-02T15:04:05.000Z") || got.Before(want) || !got.Before(want.Add(time.Millisecond)) {
		t.Errorf("%s: data-expires-at %q (%v); want %s rounded up to the millisecond", what, attr, err, want.Format(time.RFC3339Nano))
	}
}

// deliverCallbacks runs the sandbox's deliverer in the background, as
// cmd/boxoffice's workers do: at once after each Pay or Decline, and every
// 50ms, until the test ends (before the store closes).
func deliverCallbacks(t testing.TB, sandbox *payment.Sandbox) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	kicks := make(chan struct{}, 1)
	sandbox.OnQueued(func() {
		select {
		case kicks <- struct{}{}:
		default:
		}
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-kicks:
			case <-tick.C:
			}
			_, _ = sandbox.Deliver(ctx, 0)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}
