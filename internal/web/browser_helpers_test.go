package web_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/static"
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
		skip("browser test in -short mode")
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

// browser is one headless Chromium tab on a phone-sized window. Console
// errors, warnings and exceptions fail the test when it ends, unless
// expected says they are part of it. BOXOFFICE_SCREENSHOTS=dir saves the
// screenshots the test asks for.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, expected func(text string) bool) *browser {
	t.Helper()
	chrome := needBrowser(t)
	ctx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.WindowSize(390, 844))
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)

	b := &browser{t: t, ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if (m.IsException() || m.Type == "error" || m.Type == "warning") && (expected == nil || !expected(m.Text)) {
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
			t.Errorf("browser console: %s", p)
		}
	})
	return b
}

// do runs steps, failing the test on error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// text is the text of the first element matching the CSS selector.
func (b *browser) text(css string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(css)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", css, err)
	}
	return s
}

// location is the page's URL.
func (b *browser) location() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return loc
}

// js evaluates a boolean expression in the page.
func (b *browser) js(expr string) bool {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return ok
}

// waitFor waits until expr is true in the page.
func (b *browser) waitFor(expr string, within time.Duration) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr,
		chromedp.WithPollingTimeout(within), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting %s for %s: %v", within, expr, err)
	}
}

// shot saves a full-page screenshot as name.png under BOXOFFICE_SCREENSHOTS
// when that is set, to look at what a test saw. The committed screenshots in
// docs/screenshots come from one place only: internal/e2e, with -update.
func (b *browser) shot(name string) chromedp.Action[chromedp.Void] {
	dir := os.Getenv("BOXOFFICE_SCREENSHOTS")
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if dir == "" {
			return nil
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	})
}

// seatState is the expression for a seat's data-state on the map.
func seatState(seat string) string {
	return `document.querySelector('[data-seat-id="` + seat + `"]').dataset.state`
}
