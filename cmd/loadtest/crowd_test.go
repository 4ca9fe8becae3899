package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
	"boxoffice/internal/testkit"
)

// TestCrowdWatchesAndBuys is the crowd in small against the real binary:
// two processes, 40 browsers arriving over 2 s, half of them buyers for a
// hall of 40 seats, so that some lose,
// everyone polling the map every second as the page's htmx does. It
// asserts that the watchers polled and were answered 304 when nothing
// changed, that no request failed on the server's side, and what the
// database says: the invariants, and that no buyer lost every try while
// a block for its party was free.
func TestCrowdWatchesAndBuys(t *testing.T) {
	bin := testkit.BuildBinary(t)
	var out, progress bytes.Buffer
	err := runJourney(context.Background(), []string{
		"-bin", bin, "-db", filepath.Join(t.TempDir(), "crowd.db"), "-procs", "2",
		"-browsers", "40", "-buyers", "0.5", "-ramp", "2s", "-poll", "1s", "-duration", "9s",
		"-rows", "4", "-cols", "10", "-seed", "11", "-progress", "0", "-keep",
		"-env", "HOLD_RATE=0", "-env", "HOLD_SEATS_PER_ADDRESS=0",
	}, &out, &progress)
	report := out.String()
	t.Logf("crowd report:\n%s%s", report, progress.String())
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\d+ requests in `).MatchString(report) {
		t.Errorf("the first line is not \"N requests in …\"")
	}
	rows := reportRows(t, report)
	for _, route := range []string{"page", "poll 200", "poll 304", "hold"} {
		if rows[route] == 0 {
			t.Errorf("no %q row, or a count of 0", route)
		}
	}
	if rows["page"] != 40 {
		t.Errorf("%d pages for 40 browsers", rows["page"])
	}
	if rows["poll"] != rows["poll 200"]+rows["poll 304"] {
		t.Errorf("poll %d is not poll 200 %d + poll 304 %d", rows["poll"], rows["poll 200"], rows["poll 304"])
	}
	for _, want := range []string{"timeouts 0, 5xx 0", "invariants: ok", " 0 of them while a block for their party was free", "CPU over "} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
}

// reportRows reads the rows of a report as sidebyside.sh does (awk
// fields): route, count, per-s, p50, p90, p99, max; a route of two words
// ("poll 304") is kept whole. The rows end at the first line of another
// shape.
func reportRows(t *testing.T, report string) map[string]int {
	t.Helper()
	lines := strings.Split(report, "\n")
	if len(lines) < 2 || strings.Join(strings.Fields(lines[1]), " ") != "route count per-s p50 p90 p99 max" {
		t.Fatalf("second line %q is not the header route count per-s p50 p90 p99 max", lines[1])
	}
	rows := map[string]int{}
	for _, line := range lines[2:] {
		f := strings.Fields(line)
		if len(f) < 7 {
			break
		}
		name := strings.Join(f[:len(f)-6], " ")
		n, err := strconv.Atoi(f[len(f)-6])
		if err != nil {
			break // the rows ended
		}
		if _, err := strconv.ParseFloat(f[len(f)-5], 64); err != nil {
			break
		}
		durations := true
		for _, d := range f[len(f)-4:] {
			if _, err := time.ParseDuration(d); err != nil {
				durations = false
			}
		}
		if !durations {
			break
		}
		rows[name] = n
	}
	return rows
}

// TestCrowdOnsale runs a crowd through the waiting room: the tool signs
// in as admin and creates the on-sale. A boxoffice without on-sales
// answers POST /admin/onsales with 404, which the run reports as such;
// one with them admits the browsers, who then watch.
func TestCrowdOnsale(t *testing.T) {
	bin := testkit.BuildBinary(t)
	var out, progress bytes.Buffer
	err := runJourney(context.Background(), []string{
		"-bin", bin, "-db", filepath.Join(t.TempDir(), "onsale.db"), "-procs", "2",
		"-browsers", "20", "-buyers", "0.3", "-ramp", "1s", "-poll", "1s", "-duration", "10s",
		"-onsale", "6000", "-onsale-opens", "2s", "-queue-poll", "1s",
		"-rows", "6", "-cols", "10", "-seed", "5", "-progress", "0",
	}, &out, &progress)
	t.Logf("report:\n%s%s", out.String(), progress.String())
	if err != nil {
		t.Fatal(err)
	}
	report := out.String()
	m := regexp.MustCompile(`(\d+) joined, (\d+) admitted`).FindStringSubmatch(report)
	if m == nil {
		t.Fatal("the report does not say how many joined and were admitted")
	}
	if joined, _ := strconv.Atoi(m[1]); joined != 20 {
		t.Errorf("%d of 20 browsers joined", joined)
	}
	if admitted, _ := strconv.Atoi(m[2]); admitted == 0 {
		t.Error("nobody was admitted at 6000 a minute")
	}
	if rows := reportRows(t, report); rows["queue"] == 0 || rows["poll"] == 0 {
		t.Errorf("queue %d, poll %d: want both", rows["queue"], rows["poll"])
	}
}

// TestCrowdFlags: the crowd's flags are checked, and -env reaches the
// processes' environment.
func TestCrowdFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-browsers", "-1"}, {"-browsers", "100001"}, {"-browsers", "10", "-buyers", "1.5"}, {"-browsers", "10", "-buyers", "-0.1"},
		{"-browsers", "10", "-kill"}, {"-browsers", "10", "-ramp", "1m", "-duration", "30s"}, {"-onsale", "300"},
		{"-browsers", "10", "-queue-poll", "0"}, {"-browsers", "10", "-onsale", "-1"}, {"-browsers", "10", "-poll", "-1s"},
		{"-env", "HOLD_RATE"}, {"-env", "=0"},
	} {
		if _, err := parseJourneyFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	c, err := parseJourneyFlags([]string{"-browsers", "5000", "-buyers", "0.3", "-ramp", "60s", "-duration", "3m", "-onsale", "300",
		"-env", "HOLD_RATE=0", "-env", "HOLD_SEATS_PER_ADDRESS=0"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.browsers != 5000 || c.buyers != 0.3 || c.onsale != 300 || !slices.Equal(c.extraEnv, []string{"HOLD_RATE=0", "HOLD_SEATS_PER_ADDRESS=0"}) {
		t.Errorf("parsed %+v", c)
	}
}

// TestReadMapPage reads the poll of a seat map page as
// views/partials/seatmap.templ writes it, and refuses a map that does not
// poll.
func TestReadMapPage(t *testing.T) {
	page := `<!doctype html><html lang="en"><head><meta name="csrf-token" content="tok.123">
<meta name="htmx-config" content="{}"></head><body><main>
<div id="seatmap" class="seatmap" data-show-id="s1" data-etag="&#34;v42-en&#34;" data-server-now="2026-12-01T10:00:00Z"
 hx-get="/shows/s1/seats" hx-trigger="every 5s, seatmap-refresh" hx-swap="outerHTML" hx-sync="closest form:abort">
<div class="seatmap-scroll">` + strings.Repeat(`<span class="seat" data-seat-id="A1"></span>`, 50) + `</div></div></main></body></html>`
	p, err := readMapPage(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if want := (mapPoll{csrf: "tok.123", url: "/shows/s1/seats", every: 5 * time.Second, etag: `"v42-en"`}); p != want {
		t.Errorf("read %+v, want %+v", p, want)
	}
	for _, bad := range []string{
		`<html><body><p>no map</p></body></html>`,
		`<div id="seatmap" data-etag="x" hx-trigger="every 5s"></div>`,
		`<div id="seatmap" data-etag="x" hx-get="/shows/s1/seats" hx-trigger="seatmap-refresh"></div>`,
	} {
		if _, err := readMapPage(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestFragmentETag reads the new data-etag of a map fragment, gzipped as
// the server sends it to a browser.
func TestFragmentETag(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`<div id="seatmap" class="seatmap" data-show-id="s1" data-etag="&#34;v43-en&#34;" hx-get="/shows/s1/seats"><div class="seatmap-scroll"></div></div>`))
	zw.Close()
	zr, err := gzip.NewReader(&gz)
	if err != nil {
		t.Fatal(err)
	}
	etag, err := fragmentETag(zr)
	if err != nil || etag != `"v43-en"` {
		t.Errorf("etag %q, %v; want \"v43-en\"", etag, err)
	}
	if _, err := fragmentETag(strings.NewReader(`<p>Too many requests</p>`)); err == nil {
		t.Error("a fragment without #seatmap: no error")
	}
}

// TestReadQueuePage reads the waiting room's page as SPEC §20 ("queue")
// describes it, in each state.
func TestReadQueuePage(t *testing.T) {
	head := `<!doctype html><html><head><meta name="csrf-token" content="meta-tok"></head><body>`
	for _, c := range []struct {
		name, html string
		want       queueView
	}{
		{"open", head + `<section data-queue-state="open"><form method="post" action="/queue/os1/join"><input type="hidden" name="_csrf" value="form-tok"><button>Join</button></form></section>`,
			queueView{state: "open", position: -1, ahead: -1, eta: -1, join: "/queue/os1/join", csrf: "form-tok"}},
		{"before T0", head + `<section data-queue-state="waiting" hx-get="/queue/os1" hx-trigger="every 20s"><p>You are in the queue; your place is drawn at the opening.</p><p data-eta-seconds="95">About 2 minutes</p></section>`,
			queueView{state: "waiting", position: -1, ahead: -1, eta: 95, csrf: "meta-tok", refresh: "/queue/os1"}},
		{"waiting", head + `<section data-queue-state="waiting" data-position="1234" data-ahead="1034" data-eta-seconds="207"><p>1034 people ahead of you</p></section>`,
			queueView{state: "waiting", position: 1234, ahead: 1034, eta: 207, csrf: "meta-tok"}},
		{"paused", head + `<section data-queue-state="waiting"><span data-position="7"></span><span data-ahead="3"></span><p>The queue is paused.</p></section>`,
			queueView{state: "waiting", position: 7, ahead: 3, eta: -1, csrf: "meta-tok"}},
		{"admitted", head + `<nav><a href="/shows/other">Other</a></nav><section data-queue-state="admitted" data-position="3" data-ahead="0" data-eta-seconds="0"><a class="btn" href="/shows/s1">Choose your seats</a></section>`,
			queueView{state: "admitted", position: 3, ahead: 0, eta: 0, csrf: "meta-tok", next: "/shows/s1"}},
		{"closed", head + `<section data-queue-state="closed"><p>This sale has closed.</p></section>`,
			queueView{state: "closed", position: -1, ahead: -1, eta: -1, csrf: "meta-tok"}},
	} {
		got, err := readQueuePage(strings.NewReader(c.html))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: read %+v, want %+v", c.name, got, c.want)
		}
	}
	for _, bad := range []string{
		head + `<p>no state</p>`,
		head + `<section data-queue-state="admitted-soon"></section>`,
		head + `<section data-queue-state="waiting" data-position="-2"></section>`,
		head + `<section data-queue-state="waiting" data-ahead="many"></section>`,
	} {
		if _, err := readQueuePage(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestLatRowsShape: a row is route, count, per-s, p50, p90, p99, max, as
// sidebyside.sh and the test above read it.
func TestLatRowsShape(t *testing.T) {
	var out bytes.Buffer
	out.WriteString("3 requests in 2s\n")
	latRows(&out, []string{"poll 304", "hold", "none"}, map[string][]time.Duration{
		"poll 304": {time.Millisecond, 3 * time.Millisecond}, "hold": {1500 * time.Microsecond},
	}, 2)
	rows := reportRows(t, out.String())
	if len(rows) != 2 || rows["poll 304"] != 2 || rows["hold"] != 1 {
		t.Errorf("rows %v from\n%s", rows, out.String())
	}
	if f := strings.Fields(strings.Split(out.String(), "\n")[2]); f[3] != "1.0" || f[7] != "3ms" {
		t.Errorf("poll 304 row %q: want per-s 1.0 and max 3ms", f)
	}
}

// TestLostWhileFree: a buyer who lost every try is blamed only for a block
// that was free from before its try to the end.
func TestLostWhileFree(t *testing.T) {
	seats := catalog.SyntheticLayout(1, 4).Seats() // A1 … A4, one row, no aisle
	for i := range seats {
		seats[i].ShowID = "s"
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	moment := booking.Rules{TTL: 15 * time.Minute}.At(t0.Add(time.Minute))
	lost := &buyer{n: 1, party: 2, show: "s", lostAll: true, tries: []try{{start: t0, end: t0.Add(time.Millisecond), status: 409}}}
	taken := func(ids ...string) []booking.Seat {
		out := slices.Clone(seats)
		for i := range out {
			if slices.Contains(ids, out[i].ID) {
				out[i].Status, out[i].LockedAt, out[i].HoldID = booking.SeatLocked, t0.Add(-time.Second), "h"
			}
		}
		return out
	}
	if msg := lostWhileFree(lost, taken("A2", "A3"), nil, moment); msg != "" {
		t.Errorf("no two free together, blamed: %s", msg)
	}
	if msg := lostWhileFree(lost, taken("A1"), nil, moment); !strings.Contains(msg, "[A2 A3]") && !strings.Contains(msg, "[A3 A4]") {
		t.Errorf("A2–A4 free throughout, not blamed: %q", msg)
	}
	freedAfter := map[string]time.Time{"A3": t0.Add(time.Second), "A4": t0.Add(time.Second)}
	if msg := lostWhileFree(lost, taken("A1"), freedAfter, moment); msg != "" {
		t.Errorf("A3 and A4 freed after the try, blamed: %s", msg)
	}
	freedBefore := map[string]time.Time{"A3": t0.Add(-time.Second), "A4": t0.Add(-time.Second)}
	if msg := lostWhileFree(lost, taken("A1", "A2"), freedBefore, moment); !strings.Contains(msg, "[A3 A4]") {
		t.Errorf("A3 and A4 freed before the try, not blamed: %q", msg)
	}
	won := *lost
	won.lostAll = false
	if msg := lostWhileFree(&won, seats, nil, moment); msg != "" {
		t.Errorf("a buyer who won, blamed: %s", msg)
	}
}

// TestSoldOutAt: the show is sold out from the hold that takes its last
// available seat, released seats count as available again, and a hold
// freed at a moment the tool did not see never frees them.
func TestSoldOutAt(t *testing.T) {
	seats := catalog.SyntheticLayout(1, 4).Seats()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	holds := []holdRow{
		{id: "a", seats: []string{"A1", "A2"}, createdAt: at(1), state: "released"},
		{id: "b", seats: []string{"A3", "A4"}, createdAt: at(2), state: "active"},
		{id: "c", seats: []string{"A1", "A2"}, createdAt: at(5), state: "completed"},
	}
	release := func(h holdRow) time.Time {
		if h.id == "a" {
			return at(3)
		}
		return never
	}
	if got := soldOutAt(seats, holds, release); !got.Equal(at(2)) {
		t.Errorf("sold out at %v, want %v (when b took the last two)", got, at(2))
	}
	holds[1].createdAt = at(4) // b after a released
	if got := soldOutAt(seats, holds, release); !got.Equal(at(5)) {
		t.Errorf("sold out at %v, want %v (when c took A1 and A2 again)", got, at(5))
	}
	if got := soldOutAt(seats, holds[:2], release); !got.IsZero() {
		t.Errorf("sold out at %v with A1 and A2 released", got)
	}
}

// TestStatCPU reads utime+stime of /proc/PID/stat, whose command may hold
// spaces and parentheses.
func TestStatCPU(t *testing.T) {
	stat := "4242 (box office (x)) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 12 0 100 0 0"
	if got := statCPU(stat); got != 3250*time.Millisecond {
		t.Errorf("statCPU = %v, want 3.25s (325 ticks)", got)
	}
	if got := statCPU("garbage"); got != 0 {
		t.Errorf("statCPU of garbage = %v", got)
	}
}

// TestCPUShare recovers what each kind of request costs from windows made
// with known costs, and tells nothing from too few windows.
func TestCPUShare(t *testing.T) {
	var r cpuRecord
	for i := range 20 {
		w := cpuWindow{}
		w.n[kindPoll] = float64(500 + 37*i%200)
		w.n[kindHold] = float64(10 + 7*i%13)
		w.cpu = time.Duration(w.n[kindPoll])*100*time.Microsecond + time.Duration(w.n[kindHold])*time.Millisecond + 5*time.Millisecond
		r.windows = append(r.windows, w)
		if i == 8 {
			if _, _, _, ok := r.share(); ok {
				t.Error("9 windows for 3 unknowns: an estimate")
			}
		}
	}
	cost, seen, idle, ok := r.share()
	if !ok || !seen[kindPoll] || !seen[kindHold] || seen[kindQueue] {
		t.Fatalf("ok %v, seen %v", ok, seen)
	}
	near := func(got, want time.Duration) bool { return (got - want).Abs() <= want/100 }
	if !near(cost[kindPoll], 100*time.Microsecond) || !near(cost[kindHold], time.Millisecond) || !near(idle, 5*time.Millisecond) {
		t.Errorf("poll %v, hold %v, idle %v; want 100µs, 1ms, 5ms", cost[kindPoll], cost[kindHold], idle)
	}
}
