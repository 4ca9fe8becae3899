package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// TestQueueBrowser: the waiting room on a phone in a real Chromium, in
// each of its states (before the gate opens, open, waiting, paused, the
// visitor's turn, closed), has no axe-core violation, and a visitor who
// joined before T0 waits there, then is admitted (SPEC §18).
func TestQueueBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newApp(t)
	now := time.Now().UTC().Round(0)
	a.clock.Set(now)
	// One a minute: the first to join waits a minute after T0.
	t0 := now.Add(40 * time.Minute)
	o, err := a.svc.CreateOnSale(context.Background(), booking.OnSaleRequest{
		Name: "Monsoon Express pre-sale", OpensAt: t0, Rate: 1, ShowIDs: []string{testShowID},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The closed queue's page is 410, which the browser logs.
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 410") })
	queue := func(state string) {
		t.Helper()
		a.clock.Advance(3 * time.Second) // past the on-sales' snapshot's age
		br.Do(
			chromedp.Navigate(a.srv.URL+"/queue/"+o.ID),
			chromedp.WaitVisible(chromedp.CSS(`[data-queue-state="`+state+`"]`)),
		)
	}
	br.Do(chromedp.EmulateViewport(testkit.PhoneWidth, testkit.PhoneHeight))
	queue("before")
	testkit.Axe(br, "queue, before, phone")

	a.clock.Set(t0.Add(-10 * time.Minute))
	a.clock.Advance(3 * time.Second)
	br.Do(
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
	br.Do(darkMode(false))

	// After T0 the visitor has a place; paused, the page says so.
	a.clock.Set(t0.Add(booking.SettlingMargin))
	if _, err := a.svc.PauseOnSale(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	queue("waiting")
	if !br.JS(`document.querySelector('[data-queue-state="waiting"] .notice') !== null`) {
		t.Error("the paused queue's page does not say it is paused")
	}
	testkit.Axe(br, "queue, paused, phone")
	if _, err := a.svc.ResumeOnSale(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	a.clock.Set(t0.Add(5 * time.Minute))
	queue("admitted")
	testkit.Axe(br, "queue, admitted, phone")
	if _, err := a.svc.CloseOnSale(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	queue("closed")
	testkit.Axe(br, "queue, closed, phone")
}
