package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/payment/stripetest"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/testkit"
)

// TestStripeJourney runs the real binary with PAYMENT_PROVIDER=stripe, its
// API at a running stripe-mock: hold, Pay (303 to Stripe's checkout), and
// a signed checkout.session.completed posted to the webhook confirms the
// booking. With REFUND_AUTOMATICALLY a late payment whose seat was taken is
// refunded through Stripe at once.
func TestStripeJourney(t *testing.T) {
	bin := testkit.BuildBinary(t)
	mock := testkit.StripeMock(t)
	dbURL, path := tempDatabaseURL(t)
	store := openStore(t, path)
	show, _ := createShow(t, store, "Stripe Night", 4)
	srv := serve(t, bin, "ADDR=127.0.0.1:0", "DATABASE_URL="+dbURL, "SEED_DEMO=false", "LOG_FORMAT=json",
		"PAYMENT_PROVIDER=stripe", "STRIPE_SECRET_KEY="+stripetest.SecretKey,
		"STRIPE_WEBHOOK_SECRET="+stripetest.WebhookSecret, "STRIPE_API_BASE="+mock,
		"REFUND_AUTOMATICALLY=true", "HOLD_TTL=2s").URL

	// In time: booked.
	p := stripePay(t, srv, store, show.ID, "A1")
	if ans := postStripeEvent(t, srv, stripeSessionEvent(t, mock, store, p)); ans["effect"] != "booked" {
		t.Fatalf("webhook answer %v, want booked", ans)
	}
	if b, _ := store.Booking(context.Background(), p.BookingID); b.State != booking.BookingConfirmed || b.TicketCode == "" {
		t.Errorf("booking %s %q, want confirmed with a ticket", b.State, b.TicketCode)
	}

	// Late, the seat taken meanwhile: refund due, and refunded at once.
	late := stripePay(t, srv, store, show.ID, "A2")
	time.Sleep(2100 * time.Millisecond) // HOLD_TTL
	hold(t, srv, show.ID, "A2")
	if ans := postStripeEvent(t, srv, stripeSessionEvent(t, mock, store, late)); ans["effect"] != "refund_due" {
		t.Fatalf("late webhook answer %v, want refund_due", ans)
	}
	b, _ := store.Booking(context.Background(), late.BookingID)
	if b.State != booking.BookingRefunded || !strings.HasPrefix(b.RefundID, "re_") || b.RefundedBy != booking.RefundedAutomatically {
		t.Errorf("late booking %s, refund %q by %q; want refunded automatically through Stripe", b.State, b.RefundID, b.RefundedBy)
	}

	// The sandbox's callback is not there.
	res, err := http.Post(srv+payment.CallbackPath, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("POST %s with Stripe: %d, want 404", payment.CallbackPath, res.StatusCode)
	}
}

// newBrowserlessClient is a moviegoer's cookie jar that does not follow
// redirects.
func newBrowserlessClient(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// hold holds seat for a new moviegoer and returns the moviegoer and the
// hold's path.
func hold(t *testing.T, srv, showID, seat string) (*http.Client, string) {
	t.Helper()
	c := newBrowserlessClient(t)
	token := seatMapCSRF(t, c, srv, showID)
	res, err := c.PostForm(srv+"/shows/"+showID+"/holds", url.Values{"_csrf": {token}, "seat": {seat}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("hold %s: %s, want 303", seat, res.Status)
	}
	return c, res.Header.Get("Location")
}

// stripePay holds seat and presses Pay, which must send the browser to
// Stripe's checkout; it returns the payment the server stored.
func stripePay(t *testing.T, srv string, store *sqlite.Store, showID, seat string) booking.Payment {
	t.Helper()
	c, holdPath := hold(t, srv, showID, seat)
	res, err := c.PostForm(srv+holdPath+"/pay", url.Values{"_csrf": {seatMapCSRF(t, c, srv, showID)}, "email": {"moviegoer@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, payment.StripeCheckoutOrigin+"/") {
		t.Fatalf("Pay: %s to %q, want 303 to Stripe's checkout", res.Status, loc)
	}
	holdID := strings.TrimPrefix(holdPath, "/holds/")
	bookings, err := store.ShowBookings(context.Background(), showID)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bookings {
		if b.HoldID == holdID {
			p, err := store.Payment(context.Background(), b.PaymentID)
			if err != nil || !strings.HasPrefix(p.CheckoutRef, "cs_") {
				t.Fatalf("payment of hold %s: %+v, %v; want one with its session id", holdID, p, err)
			}
			return p
		}
	}
	t.Fatalf("no booking for hold %s", holdID)
	return booking.Payment{}
}

// stripeSessionEvent is the checkout.session.completed Stripe sends once
// payment p's session is paid: the session as stripe-mock answers for its
// id, completed with what stripe-mock cannot know.
func stripeSessionEvent(t *testing.T, mock string, store *sqlite.Store, p booking.Payment) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, mock+"/v1/checkout/sessions/"+p.CheckoutRef, nil)
	req.SetBasicAuth(stripetest.SecretKey, "")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var cs map[string]any
	if err := json.NewDecoder(res.Body).Decode(&cs); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("retrieving session %s from stripe-mock: %s, %v", p.CheckoutRef, res.Status, err)
	}
	cs["client_reference_id"] = p.ID
	cs["metadata"] = map[string]any{"payment_id": p.ID, "hold_id": p.HoldID, "booking_id": p.BookingID}
	cs["amount_total"], cs["currency"] = int64(p.Amount), strings.ToLower(p.Currency)
	cs["status"], cs["payment_status"] = "complete", "paid"
	return stripetest.Event(t, "checkout.session.completed", cs)
}

// postStripeEvent signs body now and posts it to the webhook; it must be
// answered 200.
func postStripeEvent(t *testing.T, srv string, body []byte) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv+payment.StripeWebhookPath, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(payment.StripeSignatureHeader, stripetest.Sign(body, stripetest.WebhookSecret, time.Now()))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("webhook: %s %s", res.Status, raw)
	}
	var ans map[string]any
	_ = json.Unmarshal(raw, &ans)
	return ans
}
