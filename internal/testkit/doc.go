// Package testkit holds the helpers that boxoffice's tests share: a headless
// Chromium to drive (browser.go) and the real boxoffice binary, built once
// and run as a process (process.go), the benchmarks' measuring loop
// with its p50 and p99 (bench.go), Eventually, which waits for a
// condition by asking it again (eventually.go), and SkipUnlessCI, which
// skips a test that cannot run here but fails it under CI, as NeedAssets
// does without make assets (need.go). It is for tests only: nothing
// outside a _test.go file imports it.
package testkit
