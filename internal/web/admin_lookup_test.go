package web_test

import (
	"net/http"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// TestAdminShowBoundsLookups: a show's page looks its stuck payments up at
// Stripe inside its request, at most five a view; the next view gets to
// the rest, and none is asked twice within a minute.
func TestAdminShowBoundsLookups(t *testing.T) {
	mock := testkit.StripeMock(t)
	a := newStripeApp(t, mock)
	seats := []string{"A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2"}
	for _, seat := range seats {
		a.pay(seat)
	}
	lookups := func() int { return len(a.rec.Calls("GET /v1/checkout/sessions/")) }
	admin := a.client()
	admin.mustLogin()
	view := func() int {
		t.Helper()
		before := lookups()
		wantStatus(t, admin.get("/admin/shows/"+testShowID), http.StatusOK)
		return lookups() - before
	}
	if n := view(); n != 0 {
		t.Errorf("%d lookups of payments pending for less than 10 minutes", n)
	}
	a.clock.Advance(booking.StuckAfter)
	for i, want := range []int{5, 3, 0} {
		if n := view(); n != want {
			t.Errorf("view %d of %d stuck payments: %d lookups, want %d", i+1, len(seats), n, want)
		}
	}
	a.clock.Advance(booking.LookupEvery)
	if n := view(); n != 5 {
		t.Errorf("a minute later: %d lookups, want 5", n)
	}
}
