package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// TestBrowserTypesOnPhone: on a phone (390×844) a moviegoer holds three
// Classic seats, picks adult, child and senior at checkout, one row per
// seat and nothing wider than the screen, sees the total follow each
// choice, pays in the sandbox and finds each seat's type and price on the
// booking page.
func TestBrowserTypesOnPhone(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.typedShow()
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.EmulateViewport(testkit.PhoneWidth, testkit.PhoneHeight),
		chromedp.Navigate(a.srv.URL+"/shows/"+typedShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A3"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`select[name="type_A3"]`)),
	)
	amount := `document.querySelector('[data-amount]').dataset.amount`
	if !br.JS(amount + ` === '54000'`) {
		t.Fatalf("checkout's first total is %s, want 54000 (three adults)", testkit.Eval[string](br, amount))
	}
	// One row per seat, each row's select inside the screen, no page wider
	// than the phone.
	if !br.JS(`(() => {
		const rows = Array.from(document.querySelectorAll('.checkout-seats > li'));
		if (rows.length !== 3) return false;
		for (let i = 1; i < rows.length; i++)
			if (rows[i].getBoundingClientRect().top < rows[i-1].getBoundingClientRect().bottom - 1) return false;
		return Array.from(document.querySelectorAll('.checkout-seats select')).every(s => s.getBoundingClientRect().right <= window.innerWidth);
	})()`) {
		t.Error("the checkout's seats are not one row each within the phone's width")
	}
	if w := testkit.Eval[float64](br, `document.documentElement.scrollWidth`); w > testkit.PhoneWidth {
		t.Errorf("the checkout is %v px wide on a %d px phone", w, testkit.PhoneWidth)
	}
	choose := func(seat, typ, want string) {
		t.Helper()
		br.JS(`(() => { const s = document.querySelector('select[name="type_` + seat + `"]'); s.value = '` + typ + `'; s.dispatchEvent(new Event('change', {bubbles: true})); return true })()`)
		br.WaitFor(amount+` === '`+want+`'`, 10*time.Second)
	}
	choose("A2", "child", "45000")  // adult 18000 + child 9000 + adult 18000
	choose("A3", "senior", "39600") // adult 18000 + child 9000 + senior 12600
	if got := br.Text("#pay-total"); got != "₹396" {
		t.Errorf("the Pay button says %q, want ₹396", got)
	}
	// Each row's price follows its choice, as the total does.
	rowPrices := testkit.Eval[string](br, `Array.from(document.querySelectorAll('.checkout-seats > li'),
		li => li.dataset.seatId + ' ' + li.querySelector('.checkout-seat-price').textContent.trim()).join(', ')`)
	if want := "A1 ₹180, A2 ₹90, A3 ₹126"; rowPrices != want {
		t.Errorf("the checkout's rows say %q, want %q", rowPrices, want)
	}
	br.Do(
		shot("types-phone-checkout"),
		chromedp.SetValue(chromedp.CSS("#pay-email"), testEmail),
		chromedp.Click(chromedp.CSS(".pay-form button")),
		chromedp.WaitVisible(chromedp.CSS(`.sandbox__actions`)),
	)
	if got := br.Text(".sandbox__amount"); got != "₹396" {
		t.Errorf("the sandbox asks for %q, want ₹396", got)
	}
	br.Do(
		chromedp.Click(chromedp.CSS(`button[value="succeed"]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
	)
	br.WaitFor(`document.querySelector('[data-booking-id]').dataset.state === 'confirmed'`, 10*time.Second)
	br.Do(shot("types-phone-booking"))
	got := testkit.Eval[string](br, `Array.from(document.querySelectorAll('[data-seat-id][data-ticket-type][data-price]'),
		e => e.dataset.seatId + ' ' + e.dataset.ticketType + ' ' + e.dataset.price).join(', ')`)
	if want := "A1 adult 18000, A2 child 9000, A3 senior 12600"; got != want {
		t.Errorf("the booking page lists %q, want %q", got, want)
	}
	text := br.Text("main")
	for _, s := range []string{"Adult", "Child", "Senior"} {
		if !strings.Contains(text, s) {
			t.Errorf("the booking page does not say %q", s)
		}
	}
	if w := testkit.Eval[float64](br, `document.documentElement.scrollWidth`); w > testkit.PhoneWidth {
		t.Errorf("the booking page is %v px wide on a %d px phone: %s", w, testkit.PhoneWidth, testkit.Eval[string](br, `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth).map(e => e.outerHTML.slice(0, 300) + ' ' + Math.round(e.getBoundingClientRect().left) + '..' + Math.round(e.getBoundingClientRect().right) + ' parent ' + e.parentElement.outerHTML.slice(0, 200)).join('\n')`))
	}
}

// TestBrowserTypesKeyboard: the type choice with the keyboard alone. Tab
// reaches each seat's select, the arrow keys change the type (the total
// follows), Tab reaches the email and Pay, and Enter on Pay pays for the
// types chosen.
func TestBrowserTypesKeyboard(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.typedShow()
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+typedShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`select[name="type_A2"]`)),
	)
	focused := `document.activeElement`
	tabTo := func(what, expr string) {
		t.Helper()
		for range 40 {
			if br.JS(focused + expr) {
				return
			}
			br.Do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", what)
	}
	amount := `document.querySelector('[data-amount]').dataset.amount`
	tabTo("A1's type", `.name === 'type_A1'`)
	br.Do(chromedp.KeyEvent(kb.ArrowDown)) // adult → child
	br.WaitFor(amount+` === '27000'`, 10*time.Second)
	tabTo("A2's type", `.name === 'type_A2'`)
	br.Do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown)) // adult → child → senior
	br.WaitFor(amount+` === '21600'`, 10*time.Second)
	br.Do(chromedp.KeyEvent(kb.ArrowUp)) // senior → child
	br.WaitFor(amount+` === '18000'`, 10*time.Second)
	br.Do(chromedp.KeyEvent(kb.ArrowDown)) // child → senior
	br.WaitFor(amount+` === '21600'`, 10*time.Second)
	if got := br.Text("#pay-total"); got != "₹216" {
		t.Errorf("the Pay button says %q, want ₹216", got)
	}
	tabTo("the email", `.id === 'pay-email'`)
	br.Do(chromedp.KeyEvent(testEmail))
	tabTo("Pay", `.matches('.pay-form button:first-of-type')`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`location.pathname.startsWith('/sandbox/checkout/')`, 10*time.Second)
	br.Do(chromedp.WaitVisible(chromedp.CSS(".sandbox__amount")))
	if got := br.Text(".sandbox__amount"); got != "₹216" {
		t.Errorf("the sandbox asks for %q, want ₹216 (child 9000 + senior 12600)", got)
	}
}

// TestBrowserTypesQuickChoices: two seats' types changed at once, faster
// than the server answers; the total shown is the one of the last choice.
func TestBrowserTypesQuickChoices(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.typedShow()
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+typedShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`select[name="type_A2"]`)),
	)
	br.JS(`(() => { for (const s of document.querySelectorAll('.checkout-seats select')) { s.value = 'child'; s.dispatchEvent(new Event('change', {bubbles: true})) } return true })()`)
	br.WaitFor(`document.querySelector('[data-amount]').dataset.amount === '18000' && document.getElementById('pay-total').textContent.trim() === '₹180'`, 10*time.Second)
}
