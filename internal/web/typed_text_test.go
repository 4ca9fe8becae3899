package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"boxoffice/internal/booking"
)

// refusedChars are the characters SPEC §12 refuses in text a person types:
// a NUL and an escape (control characters), and every bidirectional
// control (embeddings and overrides U+202A–U+202E, isolates
// U+2066–U+2069, and the marks U+200E, U+200F).
var refusedChars = []string{"\x00", "\x1b", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
	"\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f"}

// TestCatalogRefusesControlAndBidiCharacters: a theatre, a movie or a
// screen whose typed text has a control or bidirectional character is 422
// naming the field, and nothing is saved, so the home page never serves
// one.
func TestCatalogRefusesControlAndBidiCharacters(t *testing.T) {
	a := newAdminApp(t)
	ctx := context.Background()
	admin := a.client()
	admin.mustLogin()
	tok := admin.adminCSRF()
	wantStatus(t, admin.post("/admin/theatres", url.Values{"_csrf": {tok}, "name": {"Prince Charles"}, "city": {"London"}, "time_zone": {"Europe/London"}, "currency": {"INR"}}), http.StatusSeeOther)
	theatres, _ := a.store.ListTheatres(ctx)
	if len(theatres) != 1 {
		t.Fatalf("theatres %v", theatres)
	}
	screens := "/admin/theatres/" + theatres[0].ID + "/screens"

	refused := func(what, path, field string, form url.Values) {
		t.Helper()
		res := admin.post(path, form)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d, want 422", what, res.StatusCode)
			return
		}
		if res.doc(t).Find(`[data-field-error="`+field+`"]`).Length() != 1 {
			t.Errorf("%s: the refused form does not name %s", what, field)
		}
	}
	for _, ch := range refusedChars {
		q := fmt.Sprintf("%+q", ch)
		refused("theatre name "+q, "/admin/theatres", "name",
			url.Values{"_csrf": {tok}, "name": {"Regal" + ch + "Cinema"}, "city": {"Pune"}, "time_zone": {"Asia/Kolkata"}, "currency": {"INR"}})
		refused("theatre city "+q, "/admin/theatres", "city",
			url.Values{"_csrf": {tok}, "name": {"Regal"}, "city": {ch + "Pune"}, "time_zone": {"Asia/Kolkata"}, "currency": {"INR"}})
		refused("movie title "+q, "/admin/movies", "title",
			url.Values{"_csrf": {tok}, "title": {"Brief" + ch + "Encounter"}, "runtime": {"86"}})
		refused("movie language "+q, "/admin/movies", "language",
			url.Values{"_csrf": {tok}, "title": {"Brief Encounter"}, "language": {"English" + ch}, "runtime": {"86"}})
		refused("screen name "+q, screens, "name",
			url.Values{"_csrf": {tok}, "name": {"Screen" + ch + "1"}, "layout": {catalogLayout}, "action": {"save"}})
		refused("layout note "+q, screens, "layout",
			url.Values{"_csrf": {tok}, "name": {"Screen 1"}, "layout": {"# front" + ch + "\n" + catalogLayout}, "action": {"save"}})
	}
	if list, _ := a.store.ListTheatres(ctx); len(list) != 1 {
		t.Errorf("refused theatres were saved: %v", list)
	}
	if list, _ := a.store.ListMovies(ctx); len(list) != 0 {
		t.Errorf("refused movies were saved: %v", list)
	}
	if list, _ := a.store.ListScreens(ctx, theatres[0].ID); len(list) != 0 {
		t.Errorf("refused screens were saved: %v", list)
	}
	if body := a.client().get("/").body; strings.ContainsAny(body, "\x00\u202e") {
		t.Error("the home page serves a NUL or a right-to-left override")
	}
}

// TestPayRefusesControlBidiAndAddressLiterals: an email with a control or
// bidirectional character, or whose domain is an address literal, is 422
// at Pay naming the email field, and no payment is made.
func TestPayRefusesControlBidiAndAddressLiterals(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holdPath := c.mustHold("A1")
	bad := []string{"a@[127.0.0.1]", "a@[IPv6:::1]", "a@127.0.0.1", "a@b\u202e.com"}
	for _, ch := range refusedChars {
		bad = append(bad, "ana"+ch+"@example.com", "ana@exam"+ch+"ple.com")
	}
	for _, email := range bad {
		res := c.post(holdPath+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {email}})
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("Pay with %+q: status %d, want 422", email, res.StatusCode)
			continue
		}
		if res.doc(t).Find(`[data-field-error="email"]`).Length() != 1 {
			t.Errorf("Pay with %+q: the checkout does not name the email field", email)
		}
	}
	if n := countPayments(t, a); n != 0 {
		t.Errorf("refused Pays made %d payments", n)
	}
	// Names in other scripts are addresses too.
	wantStatus(t, c.post(holdPath+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {"ana@बुकिंग.भारत"}}), http.StatusSeeOther)
}

// TestFindBookingRefusesControlAndBidi: Find my booking answers 200 with
// its one message whatever it is given (SPEC §11), so a bad address is
// refused there by doing nothing: even when a booking has that very
// address (stored before Pay refused such addresses), no link is mailed.
func TestFindBookingRefusesControlAndBidi(t *testing.T) {
	a := newApp(t)
	ctx := context.Background()
	const spoofed = "ana@moc\u202eexample.com"
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, testShowID, owner, []string{"A1"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := booking.StartPaymentStep(ctx, a.store, a.clock.Now, holdID, owner, booking.PaymentStart{
		PaymentID: booking.NewID(), BookingID: booking.NewID(), Key: booking.NewBookingKey(), Email: spoofed,
	}, a.svc.Rules())
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: holdID, Amount: p.Amount, Currency: p.Currency})
	if err != nil || s.Effect != booking.EffectBooked {
		t.Fatalf("SettlePayment: %v, %v", s.Effect, err)
	}
	finder := a.client()
	find := func(email, code string) string {
		t.Helper()
		res := finder.post("/bookings/find", url.Values{"_csrf": {finder.csrf()}, "email": {email}, "code": {code}})
		wantStatus(t, res, http.StatusOK)
		return strings.TrimSpace(res.doc(t).Find("[data-find-sent]").Text())
	}
	miss := find("someone@example.com", "ZZZZ-ZZZZ")
	mailsBefore := a.count(`SELECT count(*) FROM mail`)
	for _, email := range []string{spoofed, "ana@[127.0.0.1]"} {
		if got := find(email, s.Booking.TicketCode); got != miss {
			t.Errorf("find with %+q answered %q, want the one answer %q", email, got, miss)
		}
	}
	if n := a.count(`SELECT count(*) FROM mail`); n != mailsBefore {
		t.Errorf("a refused address queued %d mails", n-mailsBefore)
	}
}
