package e2e

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// holdSeats presses Hold and waits for the checkout page of the hold.
func (b *browser) holdSeats() {
	b.T.Helper()
	b.Do(
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(".checkout .pay-form button")),
	)
	if loc := b.Location(); !strings.Contains(loc, "/holds/") {
		b.T.Fatalf("%s: after Hold the browser is at %s, want a checkout page", b.Name, loc)
	}
}

// history steps through the tab's history as the browser's own Back (-1)
// and Forward (+1) buttons do, without waiting for a load event: a page
// restored from the back/forward cache fires none (chromedp.NavigateBack
// would wait for one forever). The caller waits for what it expects.
func (b *browser) history(delta int64) {
	b.T.Helper()
	entries, err := chromedp.Run(b.Ctx, chromedp.NavigationEntries())
	if err != nil {
		b.T.Fatalf("%s: navigation history: %v", b.Name, err)
	}
	i := entries.CurrentIndex + delta
	if i < 0 || i >= int64(len(entries.Entries)) {
		b.T.Fatalf("%s: no history entry %d steps from %d of %d", b.Name, delta, entries.CurrentIndex, len(entries.Entries))
	}
	want := entries.Entries[i]
	b.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: want.ID})
		return err
	}))
	b.evalUntil(`document.readyState === 'complete' && location.href === '`+want.URL+`'`, 10*time.Second)
}

// evalUntil waits until expr is true in the page, like waitFor, but asks
// with one short evaluation at a time. After a page comes back from the
// back/forward cache, chromedp's Poll (waitFor, WaitVisible) may wait for
// a load that never comes, or run in the page that went into the cache,
// frozen there.
func (b *browser) evalUntil(expr string, within time.Duration) {
	b.T.Helper()
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(b.Ctx, time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.T.Fatalf("%s: waiting %s for %s: %v", b.Name, within, expr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkoutSeats are the seats the checkout page lists.
func (b *browser) checkoutSeats() []string {
	b.T.Helper()
	return eval[[]string](b, `[...document.querySelectorAll('.checkout-seats [data-seat-id]')].map((e) => e.dataset.seatId)`)
}

// TestHoldAndBack: from the home page to a show's seat map, three seats
// picked and held, the checkout's countdown ticking, then Back, and the
// three seats free again on the map, still chosen.
func TestHoldAndBack(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	br := newBrowser(t, "moviegoer", nil)

	br.open(s, "/", "a[data-show-id]")
	showID := eval[string](br, `document.querySelector('a[data-show-id]').dataset.showId`)
	br.Do(
		chromedp.Click(chromedp.CSS(`a[data-show-id="`+showID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	if loc := br.Location(); loc != s.URL+"/shows/"+showID {
		t.Fatalf("the show's link led to %s", loc)
	}

	// Wheelchair spaces are drawn apart (app.css selects them by data-kind).
	if diff := eval[string](br, `(() => {
	  const box = (kind) => document.querySelector('.seat' + (kind === 'standard' ? ':not([data-kind])' : '[data-kind="' + kind + '"]') + '[data-state="available"] .seat-box');
	  const w = box('wheelchair'), s = box('standard');
	  if (!w || !s) { return 'no available wheelchair and standard seats to compare'; }
	  const cw = getComputedStyle(w).borderColor, cs = getComputedStyle(s).borderColor;
	  return cw === cs ? 'both seat boxes have border ' + cw : '';
	})()`); diff != "" {
		t.Errorf("wheelchair spaces look like other seats: %s", diff)
	}

	seats := []string{"F6", "F7", "F8"}
	for _, seat := range seats {
		if !br.JS(testkit.SeatState(seat) + ` === 'available'`) {
			t.Fatalf("%s is not available on a fresh demo show", seat)
		}
	}
	br.pickSeats(seats...)
	if got := br.text(".holdbar-button"); got != "Hold 3 seats" {
		t.Errorf("the Hold button says %q, want Hold 3 seats", got)
	}
	if got := br.text(".holdbar-total"); !strings.HasPrefix(got, "₹") {
		t.Errorf("running total %q, want an amount in rupees", got)
	}

	// Marks that survive only in the back/forward cache: that the page was
	// left for checkout, and how many seat map refreshes it had sent when
	// it was hidden and by the end of its pageshow (this listener runs
	// after requests.js's, which was added first).
	br.JS(`(() => { window.boxofficeLeftForCheckout = true; window.mapSends = 0;
	  document.addEventListener('htmx:beforeSend', (e) => { if (e.detail.elt && e.detail.elt.id === 'seatmap') { window.mapSends++; } });
	  window.addEventListener('pagehide', () => { window.mapSendsAtHide = window.mapSends; });
	  window.addEventListener('pageshow', (e) => { if (e.persisted) { window.mapSendsAtShow = window.mapSends; } });
	  return true; })()`)
	// Hold just after a regular refresh, so that the next one is not due
	// before the browser's Back below: only the pageshow refresh can then
	// bring the map up to date at once.
	// The refresh done, too: a hold aborts a refresh still in flight
	// (hx-sync), which htmx reports on the console.
	br.WaitFor(`window.mapSends > 0 && !document.querySelector('.htmx-request')`, 8*time.Second)
	br.holdSeats()
	if got := br.checkoutSeats(); !slices.Equal(got, seats) {
		t.Errorf("checkout lists %v, want %v", got, seats)
	}
	// The browser's own Back button: the map again, from the back/forward
	// cache or loaded afresh, and either way showing the three seats as
	// this session's own, chosen, at once: not free, as the page was when
	// it was left (a page from the cache refreshes its map on pageshow),
	// and well before the next 5 s refresh.
	checkoutURL := br.Location()
	br.history(-1)
	mine := make([]string, len(seats))
	for i, seat := range seats {
		mine[i] = testkit.SeatState(seat) + ` === 'mine' && document.querySelector('[data-seat-id=` + seat + `] input').checked`
	}
	br.evalUntil(strings.Join(mine, " && "), 5*time.Second)
	how := "loaded afresh"
	if br.JS(`window.boxofficeLeftForCheckout === true`) {
		how = "restored from the back/forward cache"
		// Restored as it was left, the map must be refreshed at once: by
		// the end of pageshow app.js has sent a refresh (on the page's
		// visibilitychange or its pageshow). Waiting for the next regular
		// one would leave the seats shown free for up to 5 s.
		if !br.JS(`window.mapSendsAtShow > window.mapSendsAtHide`) {
			t.Error("the seat map came back from the back/forward cache and did not refresh itself at once")
		}
	}
	t.Logf("after the browser's Back the seat map was %s, and shows %v as mine", how, seats)
	// Forward again to the checkout (a fresh load: after the cache,
	// chromedp's waiting is unreliable), once no refresh is in flight:
	// leaving the page would abort it, which htmx reports on the console.
	br.WaitFor(`!document.querySelector('.htmx-request')`, 5*time.Second)
	br.open(s, strings.TrimPrefix(checkoutURL, s.URL), ".release-form button")

	expiresAt, err := time.Parse(time.RFC3339, eval[string](br, `document.querySelector('.countdown').dataset.expiresAt`))
	if err != nil {
		t.Fatalf("countdown's data-expires-at: %v", err)
	}
	if left := time.Until(expiresAt); left < 14*time.Minute || left > 15*time.Minute+5*time.Second {
		t.Errorf("the hold expires in %s, want about HOLD_TTL, 15m", left)
	}
	// The countdown ticks.
	left := br.text(".countdown-left")
	br.WaitFor(`document.querySelector('.countdown-left').textContent.trim() !== '`+left+`'`, 3*time.Second)
	br.WaitFor(`/^1[45]:[0-5][0-9]$/.test(document.querySelector('.countdown-left').textContent.trim())`, time.Second)
	br.shot("checkout-phone", "")

	// Back: on the map again, the three seats free, still chosen (as the
	// browser's own Back keeps them), and a message says the hold was
	// released.
	br.Do(
		chromedp.Click(chromedp.CSS(".release-form button")),
		chromedp.WaitVisible(chromedp.CSS("#seatmap .holdbar-button, .holdbar-button")),
	)
	if loc := br.Location(); !strings.HasPrefix(loc, s.URL+"/shows/"+showID+"?released=1") {
		t.Errorf("after Back the browser is at %s, want the seat map", loc)
	}
	for _, seat := range seats {
		br.WaitFor(testkit.SeatState(seat)+` === 'available' && document.querySelector('[data-seat-id=`+seat+`] input').checked`, 5*time.Second)
	}
	if got := br.text(".holdbar-button"); got != "Hold 3 seats" {
		t.Errorf("after Back the Hold button says %q, want Hold 3 seats", got)
	}
	if !br.JS(`(document.querySelector('#seatmap-answer [role="status"]') || {textContent: ''}).textContent.includes('Your hold was released.')`) {
		t.Error("after Back nothing says the hold was released")
	}
	br.shot("back-phone", "#seatmap-answer")
}

// TestTwoBrowsersOneSeat: two people pick overlapping seats and press Hold
// at the same moment. Exactly one reaches checkout; the other is told which
// seat was taken, sees it held on the map and keeps the rest of the
// selection, which it can then hold.
func TestTwoBrowsersOneSeat(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	showID := s.showIDs(t)[1]
	// The losing Hold is answered 409 in place; Chromium logs that status.
	conflict := func(text string) bool { return strings.Contains(text, "status of 409") }
	ana := newBrowser(t, "Ana", conflict)
	ben := newBrowser(t, "Ben", conflict)
	picks := map[*browser][]string{ana: {"E5", "E6"}, ben: {"E6", "E7"}}
	const contested = "E6"
	for _, b := range []*browser{ana, ben} {
		b.open(s, "/shows/"+showID, ".holdbar-button")
		b.pickSeats(picks[b]...)
	}

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, b := range []*browser{ana, ben} {
		wg.Go(func() { errs[i] = chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(".holdbar-button"))) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("pressing Hold in browser %d: %v", i, err)
		}
	}
	var winner, loser *browser
	for _, b := range []*browser{ana, ben} {
		b.WaitFor(`location.pathname.startsWith('/holds/') && !!document.querySelector('.countdown') ||
			!!document.querySelector('#seatmap [data-conflict]')`, 10*time.Second)
		if strings.Contains(b.Location(), "/holds/") {
			if winner != nil {
				t.Fatalf("both %s and %s reached checkout with %s", winner.Name, b.Name, contested)
			}
			winner = b
		} else {
			loser = b
		}
	}
	if winner == nil {
		t.Fatal("nobody reached checkout")
	}
	if got := winner.checkoutSeats(); !slices.Equal(got, picks[winner]) {
		t.Errorf("%s's checkout lists %v, want %v", winner.Name, got, picks[winner])
	}

	kept := picks[loser][0]
	if kept == contested {
		kept = picks[loser][1]
	}
	if msg := loser.text("#seatmap-answer [role=alert]"); !strings.Contains(msg, contested) {
		t.Errorf("%s is told %q, which does not name %s", loser.Name, msg, contested)
	}
	seat := `document.querySelector('[data-seat-id="` + contested + `"]')`
	if !loser.JS(seat + `.hasAttribute('data-conflict')`) {
		t.Errorf("%s: %s has no data-conflict", loser.Name, contested)
	}
	if !loser.JS(testkit.SeatState(contested) + ` === 'held' && ` + seat + `.querySelector('input').disabled`) {
		t.Errorf("%s: %s is not shown held, or can still be chosen", loser.Name, contested)
	}
	if !loser.JS(`document.querySelector('[data-seat-id=` + kept + `] input').checked && !document.querySelector('[data-seat-id=` + contested + `] input').checked`) {
		t.Errorf("%s lost %s from the selection, or still has %s chosen", loser.Name, kept, contested)
	}
	loser.shot("conflict-phone", "#hold-form")

	// What is left of the selection can be held at once.
	loser.holdSeats()
	if got := loser.checkoutSeats(); !slices.Equal(got, []string{kept}) {
		t.Errorf("%s's second Hold lists %v, want [%s]", loser.Name, got, kept)
	}
}

// TestHeldSeatFreesItself runs with HOLD_TTL=3s: a seat held in one browser
// shows held in another browser's map, and turns available there when the
// hold lapses, with no click and no reload.
//
// That the watcher's map loads and shows the seat held within the 3 s is
// the scenario's precondition, not what is tested: a busy machine can miss
// it. Then the scenario runs again with another seat, up to 3 times in all,
// each miss logged. What happens once the seat is shown held is asserted
// strictly.
func TestHeldSeatFreesItself(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t, "HOLD_TTL=3s")
	showID := s.showIDs(t)[2]
	holder := newBrowser(t, "holder", nil)
	watcher := newBrowser(t, "watcher", nil)

	seats := []string{"G4", "G6", "G8"}
	for attempt, seat := range seats {
		holder.open(s, "/shows/"+showID, ".holdbar-button")
		holder.pickSeats(seat)
		holder.holdSeats()

		watcher.open(s, "/shows/"+showID, ".holdbar-button")
		if !watcher.JS(testkit.SeatState(seat) + ` === 'held'`) {
			t.Logf("attempt %d: %s, held a moment ago for 3s, was not shown held when the watcher's map loaded (the machine is slow); trying another seat",
				attempt+1, seat)
			if attempt == len(seats)-1 {
				t.Fatalf("in %d attempts the watcher's map never loaded while the 3s hold lasted", len(seats))
			}
			continue
		}
		expiresAt, err := time.Parse(time.RFC3339, eval[string](watcher, `document.querySelector('[data-seat-id="`+seat+`"]').dataset.expiresAt`))
		if err != nil {
			t.Fatalf("held seat's data-expires-at: %v", err)
		}
		watcher.WaitFor(testkit.SeatState(seat)+` === 'available' && !document.querySelector('[data-seat-id=`+seat+`] input').disabled`,
			time.Until(expiresAt)+5*time.Second)
		if early := time.Until(expiresAt); early > 500*time.Millisecond {
			t.Errorf("%s turned available %s before its hold lapsed", seat, early)
		}
		// The page really is the one opened before the lapse: no reload.
		if !watcher.JS(`performance.getEntriesByType('navigation').length === 1 && performance.getEntriesByType('navigation')[0].type === 'navigate'`) {
			t.Error("the watcher's page was reloaded")
		}
		// And the holder's checkout says the hold is over.
		holder.WaitFor(`document.querySelector('.countdown').classList.contains('countdown-expired') &&
		document.querySelector('.pay-form button').disabled`, 3*time.Second)
		return
	}
}

// TestKeyboardOnly chooses two seats and holds them with the keyboard
// alone: Tab into the map (one tab stop), Space to choose, the right arrow
// to the next free seat, Space again, Tab out and Enter to hold.
func TestKeyboardOnly(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	showID := s.showIDs(t)[3]
	br := newBrowser(t, "keyboard user", nil)
	br.open(s, "/shows/"+showID, ".holdbar-button")

	focused := `document.activeElement`
	// tabTo presses Tab until expr holds for the focused element.
	tabTo := func(what, expr string) {
		t.Helper()
		for range 1000 {
			if br.JS(expr) {
				return
			}
			br.Do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", what)
	}
	var chosen []string
	br.Do(chromedp.KeyEvent(kb.Tab))
	tabTo("the seat map", focused+`.matches('.seat input[name="seat"]')`)
	for range 2 {
		for range 100 {
			if br.JS(focused + `.matches(':not(:checked)')`) {
				break
			}
			br.Do(chromedp.KeyEvent(kb.ArrowRight))
		}
		chosen = append(chosen, eval[string](br, focused+`.value`))
		br.Do(chromedp.KeyEvent(" "))
		br.WaitFor(focused+`.checked`, 2*time.Second)
	}
	if got := br.text(".holdbar-button"); got != "Hold 2 seats" {
		t.Errorf("after choosing %v the Hold button says %q", chosen, got)
	}
	tabTo("the Hold button", focused+`.matches('.holdbar-button')`)
	br.Do(
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(".checkout .countdown")),
	)
	if got := br.checkoutSeats(); !slices.Equal(got, chosen) {
		t.Errorf("checkout lists %v, want %v", got, chosen)
	}
	// Pay is in reach of the keyboard too.
	tabTo("Pay", focused+`.matches('.pay-form button')`)
}
