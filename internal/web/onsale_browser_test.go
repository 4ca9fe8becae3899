package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// TestQueueBrowser: the waiting room on a phone, before and after joining
// in a real Chromium, has no axe-core violation, and a visitor who joined
// before T0 waits there (SPEC §18).
func TestQueueBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newApp(t)
	now := time.Now().UTC().Round(0)
	a.clock.Set(now)
	_, err := a.svc.CreateOnSale(context.Background(), booking.OnSaleRequest{
		Name: "Monsoon Express pre-sale", OpensAt: now.Add(10 * time.Minute), Rate: 100, ShowIDs: []string{testShowID},
	})
	if err != nil {
		t.Fatal(err)
	}
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.EmulateViewport(testkit.PhoneWidth, testkit.PhoneHeight),
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(`[data-queue-state="open"] button`)),
	)
	testkit.Axe(br, "queue, open, phone")
	br.Do(
		chromedp.Click(chromedp.CSS(`[data-queue-state="open"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-queue-state="waiting"]`)),
	)
	testkit.Axe(br, "queue, waiting, phone")
	br.Do(darkMode(true))
	testkit.Axe(br, "queue, waiting, phone, dark")
}
