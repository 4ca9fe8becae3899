package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestAdminBrowser signs in with the form in a real Chromium and reads the
// counts of the overview and of the show page: no CSP violation (the
// occupancy bar is SVG attributes only) and no script error on the way.
func TestAdminBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	a.client().mustHold("A1", "A2")
	a.book("C1")
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id="`+testShowID+`"]`)),
		shot("admin-overview"),
	)
	row := `tr[data-show-id="` + testShowID + `"] `
	for kind, want := range map[string]string{"booked": "1", "held": "2", "available": "27"} {
		if got := br.Text(row + `[data-count="` + kind + `"]`); got != want {
			t.Errorf("overview %s = %q, want %s", kind, got, want)
		}
	}
	br.Do(
		chromedp.Click(chromedp.CSS(row+`a`)),
		chromedp.WaitVisible(chromedp.CSS(`.admin-seatmap`)),
		shot("admin-show"),
	)
	br.WaitFor(`document.querySelector('.admin-counts [data-count="held"]').textContent === '2'`, 5*time.Second)
	if !br.JS(`document.querySelector('[data-seat-id="A1"]').dataset.state === 'held'`) {
		t.Error("A1 is not shown held on the admin map")
	}
}

// TestAdminOverviewPagesBrowser (issue 29, item 8) on a laptop and a
// phone: the overview lists 50 shows a page, grouped by theatre; Next and
// Previous (rel=next, rel=prev) move between pages; the phone does not
// scroll sideways; axe-core finds nothing on either page.
func TestAdminOverviewPagesBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	now := time.Now().UTC().Round(0)
	a.clock.Set(now)
	addOverviewShows(t, a, "ta", time.UTC, now.Add(2*time.Hour), time.Hour, 40)
	addOverviewShows(t, a, "tb", kolkataZone, now.Add(3*time.Hour), time.Hour, 40)
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id]`)),
	)
	for _, size := range [][2]int{{1280, 800}, {testkit.PhoneWidth, testkit.PhoneHeight}} {
		name := itoa(size[0])
		br.Do(chromedp.EmulateViewport(int64(size[0]), int64(size[1])), chromedp.Navigate(a.srv.URL+"/admin"), chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id]`)))
		if n := testkit.Eval[float64](br, `document.querySelectorAll('[data-theatre-group] tr[data-show-id]').length`); n != 50 {
			t.Errorf("%s px: page 1 lists %.0f shows in theatre groups, want 50", name, n)
		}
		if g := testkit.Eval[float64](br, `document.querySelectorAll('[data-theatre-group]').length`); g < 2 {
			t.Errorf("%s px: page 1 has %.0f theatre groups, want ta and tb at least", name, g)
		}
		testkit.Axe(br, "admin overview, page 1, "+name)
		br.Do(shot("admin-overview-" + name))
		br.Do(chromedp.Click(chromedp.CSS(`a[rel="next"]`)))
		br.WaitFor(`document.querySelector('[data-overview-page]').dataset.overviewPage === '2'`, 10*time.Second)
		if n := testkit.Eval[float64](br, `document.querySelectorAll('tr[data-show-id]').length`); n != 31 {
			t.Errorf("%s px: page 2 lists %.0f shows, want 31", name, n)
		}
		if br.JS(`document.querySelector('a[rel="next"]') !== null`) {
			t.Errorf("%s px: the last page links a next page", name)
		}
		if size[0] == testkit.PhoneWidth {
			if w := testkit.Eval[float64](br, `document.documentElement.scrollWidth`); w > testkit.PhoneWidth {
				t.Errorf("the overview is %.0f px wide on a %d px phone", w, testkit.PhoneWidth)
			}
		}
		testkit.Axe(br, "admin overview, page 2, "+name)
		br.Do(chromedp.Click(chromedp.CSS(`a[rel="prev"]`)))
		br.WaitFor(`document.querySelector('[data-overview-page]').dataset.overviewPage === '1'`, 10*time.Second)
	}
}

// TestAdminRefundQueueBrowser (issue 29, item 8) on a laptop and a phone:
// the admin bar leads to the refund queue; it pages with Next and
// Previous; a refund pressed there comes back to it without the booking;
// the phone does not scroll sideways; axe-core finds nothing.
func TestAdminRefundQueueBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a, _, online := refundQueueApp(t, time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`nav.admin-bar`)),
	)
	for _, size := range [][2]int{{1280, 800}, {testkit.PhoneWidth, testkit.PhoneHeight}} {
		name := itoa(size[0])
		br.Do(
			chromedp.EmulateViewport(int64(size[0]), int64(size[1])),
			chromedp.Navigate(a.srv.URL+"/admin"),
			chromedp.WaitVisible(chromedp.CSS(`nav.admin-bar a[href="/admin/refunds"]`)),
			chromedp.Click(chromedp.CSS(`nav.admin-bar a[href="/admin/refunds"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-refund-due]`)),
		)
		if n := testkit.Eval[float64](br, `document.querySelectorAll('[data-refund-due]').length`); n != 50 {
			t.Errorf("%s px: page 1 lists %.0f refunds due, want 50", name, n)
		}
		if !br.JS(`document.querySelector('[data-channel="box_office"] [data-refund-at-counter]') !== null`) {
			t.Errorf("%s px: no box-office refund says refund at the counter", name)
		}
		if size[0] == testkit.PhoneWidth {
			if w := testkit.Eval[float64](br, `document.documentElement.scrollWidth`); w > testkit.PhoneWidth {
				t.Errorf("the refund queue is %.0f px wide on a %d px phone", w, testkit.PhoneWidth)
			}
		}
		testkit.Axe(br, "refund queue, "+name)
		br.Do(shot("admin-refunds-" + name))
		br.Do(chromedp.Click(chromedp.CSS(`a[rel="next"]`)))
		br.WaitFor(`document.querySelector('[data-page]') && document.querySelector('[data-page]').dataset.page === '2'`, 10*time.Second)
		testkit.Axe(br, "refund queue, page 2, "+name)
		br.Do(chromedp.Click(chromedp.CSS(`a[rel="prev"]`)))
		br.WaitFor(`document.querySelector('[data-page]') && document.querySelector('[data-page]').dataset.page === '1'`, 10*time.Second)
	}
	// A refund pressed in the queue comes back to it, without the booking.
	sel := `[data-booking-id="` + online.ID + `"]`
	found := br.JS(`document.querySelector('` + sel + `') !== null`)
	if !found {
		br.Do(chromedp.Click(chromedp.CSS(`a[rel="next"]`)))
		br.WaitFor(`document.querySelector('[data-page]').dataset.page === '2'`, 10*time.Second)
	}
	br.Do(chromedp.Click(chromedp.CSS(sel + ` form[action$="/refund?from=refunds"] button`)))
	br.WaitFor(`location.pathname === '/admin/refunds' && document.querySelector('`+sel+`') === null && document.querySelector('.notice, [role="status"]') !== null`, 10*time.Second)
}

// TestTheatreFormBrowser (issue 29, item 8) on a laptop and a phone: every
// input of the new-theatre form is at least 24 px high (44 here), the time
// zone field suggests zones from its datalist, and axe-core finds nothing
// (target-size was its one violation).
func TestTheatreFormBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin/login"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`nav.admin-bar`)),
	)
	for _, size := range [][2]int{{1280, 800}, {testkit.PhoneWidth, testkit.PhoneHeight}} {
		name := itoa(size[0])
		br.Do(
			chromedp.EmulateViewport(int64(size[0]), int64(size[1])),
			chromedp.Navigate(a.srv.URL+"/admin/theatres/new"),
			chromedp.WaitVisible(chromedp.CSS(`#f-time_zone`)),
		)
		low := testkit.Eval[[]string](br, `Array.from(document.querySelectorAll('.admin-form input:not([type=hidden]), .admin-form select, .admin-form button'))
			.filter(e => e.getBoundingClientRect().height < 24).map(e => e.id || e.name || e.textContent)`)
		if len(low) > 0 {
			t.Errorf("%s px: inputs under 24 px high: %v", name, low)
		}
		if n := testkit.Eval[float64](br, `document.getElementById(document.querySelector('#f-time_zone').getAttribute('list')).options.length`); n < 20 {
			t.Errorf("%s px: the time zone field suggests %.0f zones", name, n)
		}
		if size[0] == testkit.PhoneWidth {
			if w := testkit.Eval[float64](br, `document.documentElement.scrollWidth`); w > testkit.PhoneWidth {
				t.Errorf("the theatre form is %.0f px wide on a %d px phone", w, testkit.PhoneWidth)
			}
		}
		testkit.Axe(br, "new theatre, "+name)
		br.Do(shot("admin-theatre-new-" + name))
	}
}
