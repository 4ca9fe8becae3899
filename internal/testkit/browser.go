package testkit

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Phone viewport of the browser tests.
const PhoneWidth, PhoneHeight = 390, 844

// NeedBrowser returns the Chromium to drive. Without Chromium or the
// npm-built files of static/vendor (htmx, jsQR: make assets, NeedAssets)
// the test skips, except when CI is set: CI installs both, so there a
// browser test that cannot run fails rather than passing as a skip
// (SkipUnlessCI).
func NeedBrowser(t testing.TB) string {
	t.Helper()
	skip := func(why string) {
		t.Helper()
		SkipUnlessCI(t, why, "a browser test must run there")
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
	NeedAssets(t)
	return chrome
}

// Browser is one headless Chromium tab. Console errors, warnings and
// exceptions (a Content-Security-Policy violation is one) fail the test
// when it ends, unless the allow function given says they are part of it.
// Its methods fail the test on error.
type Browser struct {
	T    *testing.T
	Ctx  context.Context
	Name string // whose browser, in failures; may be empty

	mu       sync.Mutex
	problems []string
}

// NewBrowser starts a Chromium of the test's own, a phone-sized headless
// window, and returns its tab, limited to 90 seconds.
func NewBrowser(t *testing.T, allow func(text string) bool) *Browser {
	t.Helper()
	return NewBrowserWith(t, allow)
}

// NewBrowserWith is NewBrowser with more of Chromium's command-line
// options, such as FakeCamera.
func NewBrowserWith(t *testing.T, allow func(text string) bool, opts ...chromedp.ExecAllocatorOption) *Browser {
	t.Helper()
	chrome := NeedBrowser(t)
	opts = append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.WindowSize(PhoneWidth, PhoneHeight),
	}, opts...)
	ctx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return Attach(t, ctx, "", allow)
}

// FakeCamera gives the browser a camera that films the video file at path
// (Y4M, or MJPEG) over and over, and lets every page use it without asking.
func FakeCamera(path string) chromedp.ExecAllocatorOption {
	return func(a *chromedp.ExecAllocator) {
		chromedp.Flag("use-fake-ui-for-media-stream", true)(a)
		chromedp.Flag("use-fake-device-for-media-stream", true)(a)
		chromedp.Flag("use-file-for-fake-video-capture", path)(a)
	}
}

// Attach makes a Browser of the open tab ctx and starts watching its
// console. Call it after the cancels of ctx are registered with t.Cleanup:
// the console is checked before they run.
func Attach(t *testing.T, ctx context.Context, name string, allow func(text string) bool) *Browser {
	t.Helper()
	b := &Browser{T: t, Ctx: ctx, Name: name}
	messages := chromedp.Console(ctx) // subscribes now, before any page loads
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if (m.IsException() || m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning) &&
				(allow == nil || !allow(m.Text)) {
				b.mu.Lock()
				b.problems = append(b.problems, m.String()+" at "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { // runs before the cancels of ctx
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, p := range b.problems {
			t.Errorf("%sbrowser console: %s", b.whose(), p)
		}
	})
	return b
}

// whose is "Ana's " for Ana's browser, empty for one without a name.
func (b *Browser) whose() string {
	if b.Name == "" {
		return ""
	}
	return b.Name + "'s "
}

// prefix is "Ana: " for Ana's browser, empty for one without a name.
func (b *Browser) prefix() string {
	if b.Name == "" {
		return ""
	}
	return b.Name + ": "
}

// Do runs steps.
func (b *Browser) Do(steps ...chromedp.Action[chromedp.Void]) {
	b.T.Helper()
	if err := chromedp.Do(b.Ctx, steps...); err != nil {
		b.T.Fatalf("%s%v", b.prefix(), err)
	}
}

// Text is the text of the first element matching the CSS selector.
func (b *Browser) Text(css string) string {
	b.T.Helper()
	s, err := chromedp.Run(b.Ctx, chromedp.Text(chromedp.CSS(css)))
	if err != nil {
		b.T.Fatalf("%stext of %s: %v", b.prefix(), css, err)
	}
	return s
}

// Location is the page's URL.
func (b *Browser) Location() string {
	b.T.Helper()
	loc, err := chromedp.Run(b.Ctx, chromedp.Location())
	if err != nil {
		b.T.Fatalf("%s%v", b.prefix(), err)
	}
	return loc
}

// JS evaluates a boolean expression in the page.
func (b *Browser) JS(expr string) bool {
	b.T.Helper()
	return Eval[bool](b, expr)
}

// Eval evaluates a JavaScript expression in b's page.
func Eval[T any](b *Browser, expr string) T {
	b.T.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.T.Fatalf("%sevaluating %s: %v", b.prefix(), expr, err)
	}
	return v
}

// WaitFor waits until expr is true in the page. A page that navigates
// meanwhile (a redirect after a form) ends a poll with an error: the poll
// starts again in the new page, until within has passed.
func (b *Browser) WaitFor(expr string, within time.Duration) {
	b.T.Helper()
	deadline := time.Now().Add(within)
	for {
		_, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](expr,
			chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(100*time.Millisecond)))
		if err == nil {
			return
		}
		if time.Now().After(deadline) || b.Ctx.Err() != nil {
			b.T.Fatalf("%swaiting %s for %s: %v", b.prefix(), within, expr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// SeatState is the expression for a seat's data-state on the map.
func SeatState(seat string) string {
	return `document.querySelector('[data-seat-id="` + seat + `"]').dataset.state`
}
