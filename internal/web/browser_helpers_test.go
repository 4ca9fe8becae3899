package web_test

import (
	"context"
	"os"
	"path/filepath"

	"github.com/chromedp/chromedp"
)

// shot saves a full-page screenshot as name.png under BOXOFFICE_SCREENSHOTS
// when that is set, to look at what a test saw. The committed screenshots in
// docs/screenshots come from one place only: internal/e2e, with -update.
func shot(name string) chromedp.Action[chromedp.Void] {
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
