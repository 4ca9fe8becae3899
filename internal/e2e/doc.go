// Package e2e holds the end-to-end tests of boxoffice: a real boxoffice
// process, built once per test run with go build and started with
// boxoffice serve on a free port and a fresh SQLite file, driven by a real
// headless Chromium (chromedp) the way moviegoers and admins use it, or
// over plain HTTP as curl would (TestBoxOfficeHooks, the box office's
// hooks of SPEC §20, which needs no browser). The payment journey goes through the built-in sandbox provider, whose
// callback reaches the process over real HTTP.
//
// The package has no code of its own; everything is in its tests:
//
//	go test ./internal/e2e/            skips without Chromium, fails instead when CI is set
//	go test ./internal/e2e/ -update    also rewrites docs/screenshots/*.png
//
// Set CHROME_PATH to choose the browser (default: chromium on PATH).
package e2e
