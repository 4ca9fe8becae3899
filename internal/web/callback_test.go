package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"boxoffice/internal/booking"
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
