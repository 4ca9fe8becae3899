package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// Viewports of the screenshots and of the tests.
const (
	phoneWidth, phoneHeight   = testkit.PhoneWidth, testkit.PhoneHeight
	laptopWidth, laptopHeight = 1280, 900
)

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
	path := testkit.NeedBrowser(t)
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
	*testkit.Browser
}

func newBrowser(t *testing.T, name string, expected func(text string) bool) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(sharedChromium(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneWidth, phoneHeight)); err != nil {
		t.Fatalf("opening a tab for %s: %v", name, err)
	}
	return &browser{testkit.Attach(t, ctx, name, expected)}
}

// open loads path of s and waits until sel is visible.
func (b *browser) open(s *server, path, sel string) {
	b.T.Helper()
	b.Do(chromedp.Navigate(s.URL+path), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// text is the text of the first element matching the CSS selector,
// without the white space around it.
func (b *browser) text(css string) string {
	b.T.Helper()
	return strings.TrimSpace(b.Text(css))
}

// eval evaluates a JavaScript expression in b's page.
func eval[T any](b *browser, expr string) T {
	b.T.Helper()
	return testkit.Eval[T](b.Browser, expr)
}

// pickSeats taps seats on the seat map and checks that each is chosen.
// Like a person, it first scrolls each seat to the middle of the screen:
// one near the bottom edge sits under the sticky hold bar.
func (b *browser) pickSeats(seats ...string) {
	b.T.Helper()
	for _, s := range seats {
		label := `.seat[data-seat-id="` + s + `"]`
		b.JS(`(() => { document.querySelector('` + label + `').scrollIntoView({block: 'center', inline: 'center'}); return true; })()`)
		b.Do(chromedp.Click(chromedp.CSS(label)))
		b.WaitFor(`document.querySelector('[data-seat-id=`+s+`] input').checked`, 5*time.Second)
	}
}

// shot saves what the screen shows, scrolled to put the element matching
// top (when not empty) near the top, as name.png: with -update into
// docs/screenshots (committed: the first thing a visitor of the repository
// sees), and under BOXOFFICE_SCREENSHOTS when that is set.
func (b *browser) shot(name, top string) {
	b.T.Helper()
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
	b.JS(`(() => { if (document.activeElement) { document.activeElement.blur(); } ` + scroll + `; return true; })()`)
	b.Do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 0, 0)) // no hover either
	// Transitions (a seat just chosen) finished; a spinner may go on.
	b.WaitFor(`document.getAnimations().every((a) => a.timeline !== document.timeline ||
		a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)`, 5*time.Second)
	png, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.T.Fatalf("%s: screenshot %s: %v", b.Name, name, err)
	}
	for _, dir := range dirs {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			b.T.Fatal(err)
		}
	}
}
