package e2e

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"boxoffice/static"
)

// Viewports of the screenshots and of the tests.
const (
	phoneWidth, phoneHeight   = 390, 844
	laptopWidth, laptopHeight = 1280, 900
)

// needBrowser returns the Chromium to drive. Without Chromium or the
// npm-built htmx (make assets) the test skips, except when CI is set: CI
// installs both, so there a browser test that cannot run fails rather than
// passing as a skip.
func needBrowser(t *testing.T) string {
	t.Helper()
	skip := func(why string) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf("%s; CI is set, and a browser test must run there", why)
		}
		t.Skip(why)
	}
	if testing.Short() {
		skip("end-to-end test in -short mode")
	}
	chrome := os.Getenv("CHROME_PATH")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if chrome == "" {
			chrome, _ = exec.LookPath(name)
		}
	}
	if chrome == "" {
		skip("no Chromium found (set CHROME_PATH)")
	}
	if _, err := fs.Stat(static.FS, "vendor/htmx.min.js"); err != nil {
		skip("static/vendor/htmx.min.js is missing: run make assets")
	}
	return chrome
}

// chromium is the one headless Chromium of the test run. Each browser of a
// test is a browser context of its own in it: its own cookie jar, as
// separate as two people's phones, for a fraction of a process.
var chromium struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

func sharedChromium(t *testing.T) context.Context {
	t.Helper()
	path := needBrowser(t)
	chromium.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], // headless, --disable-background-networking, …
			chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.WindowSize(phoneWidth, phoneHeight))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		chromium.ctx = ctx
		chromium.cancel = func() { cancelCtx(); cancelAlloc() }
		chromium.err = chromedp.Do(ctx, chromedp.Navigate("about:blank"))
	})
	if chromium.err != nil {
		t.Fatalf("starting Chromium: %v", chromium.err)
	}
	return chromium.ctx
}

func closeChromium() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
}

// browser is one person's browser: a tab in a browser context of its own,
// on a phone-sized viewport. Console errors, warnings and exceptions
// (a Content-Security-Policy violation is one) fail the test when it ends,
// unless expected says they are part of it.
type browser struct {
	t    *testing.T
	name string
	ctx  context.Context

	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, name string, expected func(text string) bool) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(sharedChromium(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)

	b := &browser{t: t, name: name, ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneWidth, phoneHeight)); err != nil {
		t.Fatalf("opening a tab for %s: %v", name, err)
	}
	messages := chromedp.Console(ctx) // subscribes now, before any page loads
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if (m.IsException() || m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning) &&
				(expected == nil || !expected(m.Text)) {
				b.mu.Lock()
				b.problems = append(b.problems, m.String()+" at "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { // runs before the cancels above
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, p := range b.problems {
			t.Errorf("%s's browser console: %s", name, p)
		}
	})
	return b
}

// do runs steps, failing the test on error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", b.name, err)
	}
}

// open loads path of s and waits until sel is visible.
func (b *browser) open(s *server, path, sel string) {
	b.t.Helper()
	b.do(chromedp.Navigate(s.URL+path), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// text is the text of the first element matching the CSS selector.
func (b *browser) text(css string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(css)))
	if err != nil {
		b.t.Fatalf("%s: text of %s: %v", b.name, css, err)
	}
	return strings.TrimSpace(s)
}

// location is the page's URL.
func (b *browser) location() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatalf("%s: %v", b.name, err)
	}
	return loc
}

// js evaluates a boolean expression in the page.
func (b *browser) js(expr string) bool {
	b.t.Helper()
	return eval[bool](b, expr)
}

// eval evaluates a JavaScript expression in b's page.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("%s: evaluating %s: %v", b.name, expr, err)
	}
	return v
}

// waitFor waits until expr is true in the page. A page that navigates
// meanwhile (a redirect after a form) ends a poll with an error: the poll
// starts again in the new page, until within has passed.
func (b *browser) waitFor(expr string, within time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(within)
	for {
		_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr,
			chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(100*time.Millisecond)))
		if err == nil {
			return
		}
		if time.Now().After(deadline) || b.ctx.Err() != nil {
			b.t.Fatalf("%s: waiting %s for %s: %v", b.name, within, expr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pickSeats taps seats on the seat map and checks that each is chosen.
// Like a person, it first scrolls each seat to the middle of the screen:
// one near the bottom edge sits under the sticky hold bar.
func (b *browser) pickSeats(seats ...string) {
	b.t.Helper()
	for _, s := range seats {
		label := `label[data-seat-id="` + s + `"]`
		b.js(`(() => { document.querySelector('` + label + `').scrollIntoView({block: 'center', inline: 'center'}); return true; })()`)
		b.do(chromedp.Click(chromedp.CSS(label)))
		b.waitFor(`document.querySelector('#seat-`+s+`').checked`, 5*time.Second)
	}
}

// shot saves what the screen shows, scrolled to put the element matching
// top (when not empty) near the top, as name.png: with -update into
// docs/screenshots (committed: the first thing a visitor of the repository
// sees), and under BOXOFFICE_SCREENSHOTS when that is set.
func (b *browser) shot(name, top string) {
	b.t.Helper()
	var dirs []string
	if *update {
		dirs = append(dirs, filepath.Join("..", "..", "docs", "screenshots"))
	}
	if dir := os.Getenv("BOXOFFICE_SCREENSHOTS"); dir != "" {
		dirs = append(dirs, dir)
	}
	if len(dirs) == 0 {
		return
	}
	scroll := `window.scrollTo({top: 0, behavior: 'instant'})`
	if top != "" {
		scroll = `window.scrollTo({top: document.querySelector('` + top + `').getBoundingClientRect().top + window.scrollY - 16, behavior: 'instant'})`
	}
	// Nothing moving in the picture: no focus ring, no caret.
	b.js(`(() => { if (document.activeElement) { document.activeElement.blur(); } ` + scroll + `; return true; })()`)
	b.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 0, 0)) // no hover either
	// Transitions (a seat just chosen) finished; a spinner may go on.
	b.waitFor(`document.getAnimations().every((a) => a.timeline !== document.timeline ||
		a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)`, 5*time.Second)
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("%s: screenshot %s: %v", b.name, name, err)
	}
	for _, dir := range dirs {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
}

// seatState is the expression for a seat's data-state on the map.
func seatState(seat string) string {
	return `document.querySelector('[data-seat-id="` + seat + `"]').dataset.state`
}
