package payment

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

func TestNewSandboxValidates(t *testing.T) {
	ok := SandboxOptions{PublicURL: "http://localhost:8080", Secret: secret, Payments: newWorld(t).store}
	for name, mutate := range map[string]func(*SandboxOptions){
		"relative public URL": func(o *SandboxOptions) { o.PublicURL = "/app" },
		"no scheme":           func(o *SandboxOptions) { o.PublicURL = "localhost:8080" },
		"ftp":                 func(o *SandboxOptions) { o.PublicURL = "ftp://example.com" },
		"no secret":           func(o *SandboxOptions) { o.Secret = nil },
		"no lookup":           func(o *SandboxOptions) { o.Payments = nil },
	} {
		o := ok
		mutate(&o)
		if s, err := NewSandbox(o); err == nil {
			s.Close()
			t.Errorf("%s: NewSandbox succeeded", name)
		}
	}
	s, err := NewSandbox(ok)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

func TestSandboxCheckout(t *testing.T) {
	s := testSandbox(t, "https://tickets.example.com/", nil, 0)
	if s.Name() != "sandbox" {
		t.Errorf("Name = %q", s.Name())
	}
	got, err := s.Checkout(context.Background(), CheckoutRequest{Payment: testPayment})
	if err != nil {
		t.Fatal(err)
	}
	// A path: the browser stays on the origin it came by, with its session.
	if want := (Checkout{URL: "/sandbox/checkout/pay1"}); got != want {
		t.Errorf("Checkout = %+v, want %+v", got, want)
	}
	prefixed := testSandbox(t, "https://example.com/tickets/", nil, 0)
	if got, _ := prefixed.Checkout(context.Background(), CheckoutRequest{Payment: testPayment}); got.URL != "/tickets/sandbox/checkout/pay1" {
		t.Errorf("Checkout under a path = %q, want /tickets/sandbox/checkout/pay1", got.URL)
	}
	if _, err := s.Checkout(context.Background(), CheckoutRequest{Payment: booking.Payment{ID: "../admin"}}); err == nil {
		t.Error("Checkout accepted an invalid payment id")
	}
}

// mux mounts the sandbox the way a router with path patterns does; the
// tests also call the handlers without it, as echo.WrapHandler does.
func mux(s *Sandbox) http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET "+CheckoutPath+"{paymentID}", s.ServeCheckoutPage)
	m.HandleFunc("POST "+CheckoutPath+"{paymentID}", s.ServeCheckoutSubmit)
	return m
}

func TestCheckoutPage(t *testing.T) {
	w := newWorld(t)
	p := w.payment(t)
	settled := w.payment(t)
	if _, err := w.svc.SettlePayment(context.Background(), NewEvent(settled, booking.EventPaymentFailed, t0).PaymentEvent()); err != nil {
		t.Fatal(err)
	}
	s := testSandbox(t, "http://localhost:8080", w.store, 0)
	pagePath := CheckoutPath + p.ID

	for name, h := range map[string]http.Handler{"mux": mux(s), "plain": http.HandlerFunc(s.ServeCheckoutPage)} {
		t.Run(name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, pagePath, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("GET = %d, want 200", rec.Code)
			}
			doc := mustParse(t, rec.Body)
			checks := []struct{ what, got, want string }{
				{"banner", doc.Find(".sandbox__banner strong").Text(), "Sandbox payment — no real money"},
				{"data-payment-id", doc.Find("[data-payment-id]").AttrOr("data-payment-id", ""), p.ID},
				{"data-amount", doc.Find("[data-amount]").AttrOr("data-amount", ""), "45000"},
				{"amount", doc.Find(".sandbox__amount").Text(), "₹450"},
				{"merchant", doc.Find("h1").Text(), "Pay boxoffice"},
				{"form action", doc.Find("form").AttrOr("action", ""), pagePath},
				{"form method", doc.Find("form").AttrOr("method", ""), "post"},
				{"csrf field", doc.Find(`form input[name="_csrf"]`).AttrOr("value", ""), "csrf-token-1"},
				{"csrf meta", doc.Find(`meta[name="csrf-token"]`).AttrOr("content", ""), "csrf-token-1"},
				{"pay", doc.Find(`button.button--primary[name="outcome"]`).AttrOr("value", ""), "succeed"},
				{"pay label", doc.Find(`button[value="succeed"]`).Text(), "Pay ₹450"},
				{"decline", doc.Find(`button[value="decline"]`).Text(), "Decline"},
				{"content type", rec.Header().Get("Content-Type"), "text/html; charset=utf-8"},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
				}
			}
			if n := doc.Find("script, style, [style]").Length(); n != 0 {
				t.Errorf("page has %d inline scripts or styles; the CSP forbids them", n)
			}
		})
	}

	t.Run("settled payment", func(t *testing.T) {
		rec := httptest.NewRecorder()
		mux(s).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, CheckoutPath+settled.ID, nil))
		doc := mustParse(t, rec.Body)
		if rec.Code != http.StatusOK || doc.Find("form").Length() != 0 {
			t.Fatalf("GET = %d with %d forms, want 200 without a form", rec.Code, doc.Find("form").Length())
		}
		if href := doc.Find("a.button").AttrOr("href", ""); href != "/bookings/"+settled.BookingID {
			t.Errorf("booking link = %q, want /bookings/%s", href, settled.BookingID)
		}
	})

	for name, path := range map[string]string{
		"unknown payment": "/sandbox/checkout/nosuch",
		"not an id":       pagePath + "%3Cscript%3E",
		"nested path":     pagePath + "/x",
		"empty id":        "/sandbox/checkout/",
	} {
		t.Run(name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeCheckoutPage(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if rec.Code != http.StatusNotFound {
				t.Fatalf("GET %s = %d, want 404", path, rec.Code)
			}
			if got := mustParse(t, rec.Body).Find(".sandbox__error").Text(); got != booking.ErrPaymentNotFound.Message {
				t.Errorf("message = %q", got)
			}
		})
	}
}

func TestCheckoutPageStoreFailureHidesDetail(t *testing.T) {
	w := newWorld(t)
	p := w.payment(t)
	s := testSandbox(t, "http://localhost:8080", w.store, 0)
	w.store.Close() // every read fails from now on
	rec := httptest.NewRecorder()
	s.ServeCheckoutPage(rec, httptest.NewRequest(http.MethodGet, CheckoutPath+p.ID, nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("GET = %d, want 500", rec.Code)
	}
	if body := rec.Body.String(); strings.Contains(body, "sql") || strings.Contains(body, "closed") {
		t.Errorf("internal error text reached the page:\n%s", rec.Body)
	}
}

func postOutcome(t testing.TB, s *Sandbox, paymentID, outcome string) *httptest.ResponseRecorder {
	t.Helper()
	form := url.Values{"outcome": {outcome}, "_csrf": {"csrf-token-1"}}
	req := httptest.NewRequest(http.MethodPost, CheckoutPath+paymentID, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	mux(s).ServeHTTP(rec, req)
	return rec
}

// app is the receiving end as internal/web wires it (docs/PAYMENTS.md):
// read at most MaxCallbackBytes+1, VerifyCallback, SettlePayment, map the
// errors to statuses. It records the raw callbacks too.
func app(t testing.TB, w world, p Provider) (*httptest.Server, chan arrival) {
	t.Helper()
	got := make(chan arrival, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, MaxCallbackBytes+1))
		got <- arrival{at: time.Now(), signature: r.Header.Get(SignatureHeader), body: body}
		n, err := p.VerifyCallback(r.Header, body, w.svc.Now().Now)
		switch {
		case errors.Is(err, ErrBadSignature):
			rw.WriteHeader(http.StatusUnauthorized)
			return
		case errors.Is(err, ErrMalformed):
			rw.WriteHeader(http.StatusBadRequest)
			return
		case err != nil:
			rw.WriteHeader(http.StatusInternalServerError)
			return
		}
		_, err = w.svc.SettlePayment(r.Context(), *n.Payment)
		switch {
		case errors.Is(err, booking.ErrPaymentNotFound):
			rw.WriteHeader(http.StatusNotFound)
		case errors.Is(err, booking.ErrPaymentMismatch):
			rw.WriteHeader(http.StatusUnprocessableEntity)
		case err != nil:
			rw.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func TestCheckoutSubmitSettlesBooking(t *testing.T) {
	tests := []struct {
		outcome string
		event   booking.EventType
		state   booking.BookingState
	}{
		{"succeed", booking.EventPaymentSucceeded, booking.BookingConfirmed},
		{"decline", booking.EventPaymentFailed, booking.BookingFailed},
	}
	for _, tt := range tests {
		t.Run(tt.outcome, func(t *testing.T) {
			ctx := context.Background()
			w := newWorld(t)
			p := w.payment(t)
			s := testSandbox(t, "http://placeholder.invalid", w.store, 0)
			srv, got := app(t, w, s)
			s.publicURL = srv.URL // the app's address is known only once it listens

			rec := postOutcome(t, s, p.ID, tt.outcome)
			if rec.Code != http.StatusSeeOther {
				t.Fatalf("POST = %d, want 303", rec.Code)
			}
			if loc, want := rec.Header().Get("Location"), "/bookings/"+p.BookingID; loc != want {
				t.Errorf("Location = %q, want %q", loc, want)
			}
			var a arrival
			select {
			case a = <-got:
			case <-time.After(5 * time.Second):
				t.Fatal("no callback arrived")
			}
			n, err := s.VerifyCallback(http.Header{SignatureHeader: {a.signature}}, a.body, t0)
			if err != nil {
				t.Fatalf("callback does not verify: %v", err)
			}
			ev := *n.Payment
			want := booking.PaymentEvent{ID: ev.ID, Type: tt.event, PaymentID: p.ID, HoldID: p.HoldID, Amount: 45000, Currency: "INR"}
			if ev != want || !strings.HasPrefix(ev.ID, "evt_") {
				t.Errorf("callback event = %+v, want %+v", ev, want)
			}
			if parsed, _ := ParseEvent(a.body); parsed.Created != t0.Unix() {
				t.Errorf("created = %d, want the clock's %d", parsed.Created, t0.Unix())
			}

			var b booking.Booking
			waitFor(t, func() bool {
				b, err = w.svc.Booking(ctx, p.BookingID, "visitor1")
				return err == nil && b.State != booking.BookingPending
			})
			if b.State != tt.state {
				t.Errorf("booking state = %s, want %s", b.State, tt.state)
			}
			if (b.TicketCode != "") != (tt.state == booking.BookingConfirmed) {
				t.Errorf("ticket code = %q in state %s", b.TicketCode, b.State)
			}

			// The same event again, as a provider retry: still 200, no change.
			if err := s.deliver(ctx, eventOf(t, a.body), a.body); err != nil {
				t.Errorf("redelivery: %v", err)
			}
			st, err := w.svc.SettlePayment(ctx, ev)
			if err != nil || !st.Duplicate {
				t.Errorf("SettlePayment of a seen event = %+v, %v; want Duplicate", st, err)
			}
		})
	}
}

// eventOf parses a delivered body back into its Event.
func eventOf(t testing.TB, body []byte) Event {
	t.Helper()
	e, err := ParseEvent(body)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestCheckoutSubmitRefuses(t *testing.T) {
	w := newWorld(t)
	p := w.payment(t)
	settled := w.payment(t)
	if _, err := w.svc.SettlePayment(context.Background(), NewEvent(settled, booking.EventPaymentFailed, t0).PaymentEvent()); err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, 200)
	var logs testkit.SyncBuffer
	s := testSandbox(t, rc.srv.URL, w.store, 0)
	s.log = slog.New(slog.NewTextHandler(&logs, nil))

	tests := []struct {
		name, payment, outcome string
		status                 int
	}{
		{"no outcome", p.ID, "", http.StatusBadRequest},
		{"unknown outcome", p.ID, "refund", http.StatusBadRequest},
		{"unknown payment", "nosuch", "succeed", http.StatusNotFound},
		{"settled payment: back to its booking, no second callback", settled.ID, "succeed", http.StatusSeeOther},
	}
	for _, tt := range tests {
		if rec := postOutcome(t, s, tt.payment, tt.outcome); rec.Code != tt.status {
			t.Errorf("%s: POST = %d, want %d", tt.name, rec.Code, tt.status)
		}
	}
	s.Close() // waits for any delivery that was (wrongly) queued
	if n := rc.count(); n != 0 || logs.String() != "" {
		t.Errorf("refused submissions sent %d callbacks; log:\n%s", n, logs.String())
	}
}

func mustParse(t testing.TB, r io.Reader) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
