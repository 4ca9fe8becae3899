package web_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

// Callback answers are JSON for the provider's logs, our failures (5xx)
// included, and say nothing of the internal error.
func TestCallbackFailuresAreJSON(t *testing.T) {
	check := func(t *testing.T, res response, want int) {
		t.Helper()
		wantStatus(t, res, want)
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type %q, want JSON", ct)
		}
		var answer struct{ Error string }
		if err := json.Unmarshal([]byte(res.body), &answer); err != nil || answer.Error == "" {
			t.Errorf("body %q: want a JSON error (%v)", res.body, err)
		}
	}
	t.Run("no provider", func(t *testing.T) {
		a := newApp(t, func(o *web.Options) { o.Payments = nil })
		check(t, a.callback([]byte(`{}`), ""), http.StatusServiceUnavailable)
	})
	t.Run("store down", func(t *testing.T) {
		a := newApp(t)
		p := a.client().mustPay("A1")
		body := a.event(p, booking.EventPaymentSucceeded)
		a.store.Close()
		res := a.deliver(body)
		check(t, res, http.StatusInternalServerError)
		if strings.Contains(res.body, "sql") {
			t.Errorf("answer leaks the internal error: %s", res.body)
		}
	})
}

// A callback refused before its signature is verified is anybody's, on a
// public route: it stores nothing (SPEC §12), is counted by why, and is
// logged now and then, not each time. A verified one is still recorded.
func TestUnverifiedCallbacksStoreNothing(t *testing.T) {
	var log testkit.SyncBuffer
	a := newApp(t, func(o *web.Options) { o.Logger = slog.New(slog.NewTextHandler(&log, nil)) })
	p := a.client().mustPay("A1")
	body := a.event(p, booking.EventPaymentSucceeded)
	before := a.count(`SELECT count(*) FROM payment_callbacks`)

	for i := range 50 {
		sig := ""
		if i%2 == 1 {
			sig = "t=1,v1=00" // signed, badly
		}
		wantStatus(t, a.callback(body, sig), http.StatusUnauthorized)
	}
	huge := append(bytes.Repeat([]byte(" "), payment.MaxCallbackBytes), body...)
	for range 3 {
		wantStatus(t, a.deliver(huge), http.StatusBadRequest)
	}
	if n := a.count(`SELECT count(*) FROM payment_callbacks`); n != before {
		t.Errorf("%d callback records written for 53 unverified callbacks, want none", n-before)
	}
	m := a.client().get("/metrics").body
	for _, line := range []string{
		`boxoffice_payment_callbacks_total{outcome="bad_signature"} 50`,
		`boxoffice_payment_callbacks_total{outcome="malformed"} 3`,
	} {
		if !strings.Contains(m, line) {
			t.Errorf("metrics lack %s", line)
		}
	}
	// The 1st and the 10th bad signature, the 1st malformed one.
	if n := strings.Count(log.String(), "refused before verification"); n != 3 {
		t.Errorf("%d log lines for 53 refusals, want 3 (sampled):\n%s", n, log.String())
	}

	wantStatus(t, a.deliver(body), http.StatusOK)
	list, err := a.store.Callbacks(context.Background(), booking.CallbackQuery{PaymentID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Signature != booking.SignatureValid || list[0].Outcome != string(booking.EffectBooked) {
		t.Errorf("%d callback records of the payment, want the verified one, booked", len(list))
	}
}

// A verified event whose payment exists but whose booking, hold or show
// does not is our database's fault, not an unknown payment: 500, logged as
// an error, so that the provider retries instead of giving up on a 404.
func TestCallbackOnBrokenDatabaseIs500(t *testing.T) {
	tests := []struct {
		name   string
		delete func(p booking.Payment) (string, []any)
	}{
		{"booking missing", func(p booking.Payment) (string, []any) {
			return `DELETE FROM bookings WHERE id = ?`, []any{p.BookingID}
		}},
		{"hold missing", func(p booking.Payment) (string, []any) {
			return `DELETE FROM holds WHERE id = ?`, []any{p.HoldID}
		}},
		{"show missing", func(booking.Payment) (string, []any) {
			return `DELETE FROM shows WHERE id = ?`, []any{testShowID}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log testkit.SyncBuffer
			a := newApp(t, func(o *web.Options) { o.Logger = slog.New(slog.NewTextHandler(&log, nil)) })
			p := a.client().mustPay("A1")
			a.exec(tt.delete(p))

			res := a.deliver(a.event(p, booking.EventPaymentSucceeded))
			wantStatus(t, res, http.StatusInternalServerError)
			var answer struct{ Error string }
			if err := json.Unmarshal([]byte(res.body), &answer); err != nil || answer.Error == "" || strings.Contains(res.body, "integrity") {
				t.Errorf("answer %q: want a JSON error that says nothing internal", res.body)
			}
			if !strings.Contains(log.String(), "level=ERROR") || !strings.Contains(log.String(), "payment callback failed") {
				t.Errorf("no error logged for a broken database:\n%s", log.String())
			}
			if got := a.paymentState(p); got != booking.PaymentPending {
				t.Errorf("payment %s after the failed callback, want pending (nothing applied)", got)
			}
		})
	}
}

// exec runs a statement on a's database file through a connection of its
// own (foreign keys off, as a hand-made repair or accident would be).
func (a *app) exec(query string, args []any) {
	a.t.Helper()
	db, err := sql.Open("sqlite", a.path)
	if err != nil {
		a.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query, args...); err != nil {
		a.t.Fatalf("%s: %v", query, err)
	}
}

// paymentState reads p's state from the store.
func (a *app) paymentState(p booking.Payment) booking.PaymentState {
	a.t.Helper()
	got, err := a.store.Payment(context.Background(), p.ID)
	if err != nil {
		a.t.Fatal(err)
	}
	return got.State
}
