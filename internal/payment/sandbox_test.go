package payment

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// TestDecideSettlesBooking: Pay and Decline queue the signed callback the
// app settles the booking by, retried as a provider's.
func TestDecideSettlesBooking(t *testing.T) {
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
			s := testSandbox(t, "http://placeholder.invalid", &w, 0)
			srv, got := app(t, w, s)
			s.publicURL = srv.URL // the app's address is known only once it listens

			decided, err := s.Decide(ctx, p.ID, tt.outcome == "succeed")
			if err != nil {
				t.Fatalf("Decide: %v", err)
			}
			if decided.BookingID != p.BookingID {
				t.Errorf("Decide returned booking %q, want %q", decided.BookingID, p.BookingID)
			}
			if n := deliver(t, s); n != 1 {
				t.Fatalf("Deliver delivered %d, want 1", n)
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
			if status, err := s.post(ctx, srv.URL+CallbackPath, a.body); err != nil || status != http.StatusOK {
				t.Errorf("redelivery: %d, %v", status, err)
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

// TestDecideRefuses: an unknown payment, or one that is not an id, is
// ErrPaymentNotFound; a payment with an outcome already gets no second
// callback; after Close nothing is queued (ErrBusy).
func TestDecideRefuses(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	p := w.payment(t)
	settled := w.payment(t)
	if _, err := w.svc.SettlePayment(ctx, NewEvent(settled, booking.EventPaymentFailed, t0).PaymentEvent()); err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, 200)
	var logs testkit.SyncBuffer
	s := testSandbox(t, rc.srv.URL, &w, 0)
	s.log = slog.New(slog.NewTextHandler(&logs, nil))

	for _, id := range []string{"nosuch", "../admin", ""} {
		if _, err := s.Decide(ctx, id, true); !errors.Is(err, booking.ErrPaymentNotFound) {
			t.Errorf("Decide(%q): %v, want ErrPaymentNotFound", id, err)
		}
	}
	if got, err := s.Decide(ctx, settled.ID, true); err != nil || got.State != booking.PaymentFailed {
		t.Errorf("Decide of a settled payment: %+v, %v; want it as it is", got, err)
	}
	if n := deliver(t, s); n != 0 || rc.count() != 0 || logs.String() != "" {
		t.Errorf("refused decisions sent %d callbacks; log:\n%s", rc.count(), logs.String())
	}
	s.Close()
	if _, err := s.Decide(ctx, p.ID, true); !errors.Is(err, ErrBusy) {
		t.Errorf("Decide after Close: %v, want ErrBusy", err)
	}
	if _, err := w.store.OutboundCallback(ctx, p.ID); !errors.Is(err, booking.ErrCallbackNotFound) {
		t.Errorf("a Decide after Close recorded an outcome: %v", err)
	}
}

// TestFirstChoiceStands: Pay, then Decline before the callback has
// arrived (another tab, the back button), leaves the first choice: one
// callback, the success.
func TestFirstChoiceStands(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	p := w.payment(t)
	rc := newReceiver(t, 200)
	s := testSandbox(t, rc.srv.URL, &w, 0)
	if _, err := s.Decide(ctx, p.ID, true); err != nil {
		t.Fatal(err)
	}
	first := outbound(t, w, p)
	w.clock.Advance(time.Second)
	if _, err := s.Decide(ctx, p.ID, false); err != nil {
		t.Fatal(err)
	}
	if got := outbound(t, w, p); got.EventID != first.EventID || got.Type != booking.EventPaymentSucceeded || !got.CreatedAt.Equal(t0) {
		t.Errorf("after Decline: %+v; want the first choice, %+v", got, first)
	}
	if n := deliver(t, s); n != 1 || rc.count() != 1 {
		t.Errorf("delivered %d (receiver saw %d), want the one callback", n, rc.count())
	}
}

// TestSandboxLookup: a sandbox payment whose callback has not arrived
// (here, its receiver refuses it) is looked up like a Stripe one (SPEC §6,
// §9): the lookup answers with the outcome chosen on its page, and once
// the payment is stuck, Service.RefreshPending settles it by that.
func TestSandboxLookup(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	p := w.payment(t)
	rc := newReceiver(t, 404)
	s := testSandbox(t, rc.srv.URL, &w, 0)
	w.svc.UsePayments(s)

	if _, ok, err := s.Lookup(ctx, p); ok || err != nil {
		t.Errorf("Lookup before a choice: ok %v, %v; want nothing yet", ok, err)
	}
	if _, err := s.Decide(ctx, p.ID, true); err != nil {
		t.Fatal(err)
	}
	deliver(t, s) // refused: given up
	c := outbound(t, w, p)
	ev, ok, err := s.Lookup(ctx, p)
	want := booking.PaymentEvent{ID: c.EventID, Type: booking.EventPaymentSucceeded, PaymentID: p.ID, HoldID: p.HoldID, Amount: p.Amount, Currency: p.Currency}
	if err != nil || !ok || ev != want {
		t.Fatalf("Lookup = %+v, %v, %v; want %+v", ev, ok, err, want)
	}

	b, err := w.svc.Booking(ctx, p.BookingID, "visitor1")
	if err != nil || b.State != booking.BookingPending {
		t.Fatalf("booking %s, %v; want still pending", b.State, err)
	}
	w.clock.Advance(booking.StuckAfter)
	b, asked, err := w.svc.RefreshPending(ctx, b)
	if err != nil || !asked || b.State != booking.BookingConfirmed {
		t.Errorf("RefreshPending of the stuck payment: %s, asked %v, %v; want confirmed", b.State, asked, err)
	}
}
