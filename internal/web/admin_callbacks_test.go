package web_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
)

// TestAdminCallbackLogNewestFirst: with more callbacks than a page shows
// (200), a show's and a payment's page list the newest, newest first.
func TestAdminCallbackLogNewestFirst(t *testing.T) {
	a := newAdminApp(t)
	// The booking's own success callback is not recorded by bookAt: every
	// record below is the test's.
	b := a.book("A1")
	const n = 205
	for i := range n {
		err := a.store.RecordCallback(context.Background(), booking.CallbackRecord{
			ID: booking.NewID(), ReceivedAt: testStart.Add(time.Duration(i) * time.Second), Signature: booking.SignatureValid,
			EventID: fmt.Sprintf("evt_%03d", i), EventType: string(booking.EventPaymentSucceeded), PaymentID: b.PaymentID,
			Status: http.StatusOK, Outcome: string(booking.EffectIgnored), Duplicate: true,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	admin := a.client()
	admin.mustLogin()
	for _, path := range []string{"/admin/shows/" + testShowID, "/admin/payments/" + b.PaymentID} {
		res := admin.get(path)
		wantStatus(t, res, http.StatusOK)
		var got []string
		res.doc(t).Find(".callback-log tbody tr td code").Each(func(_ int, s *goquery.Selection) {
			if id := s.Text(); len(id) == len("evt_000") {
				got = append(got, id)
			}
		})
		if len(got) != 200 {
			t.Fatalf("%s: %d callbacks listed, want 200", path, len(got))
		}
		if got[0] != "evt_204" || got[199] != "evt_005" {
			t.Errorf("%s lists %s … %s; want the newest 200, newest first: evt_204 … evt_005", path, got[0], got[199])
		}
	}
}
