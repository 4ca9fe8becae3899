package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestWatchersShareOneMap (SPEC §18): however many watchers without a
// session poll a show's seat map fragment, the process reads and renders
// it at most once a second, and serves every one of them the same bytes,
// gzipped once, with an ETag that still answers 304; a viewer with a
// session gets the map as it is now.
func TestWatchersShareOneMap(t *testing.T) {
	a, st := newStuckApp(t, 10*time.Second)
	path := "/shows/" + testShowID + "/seats"
	poll := func(kv ...string) response {
		t.Helper()
		res := a.client().get(path, kv...)
		wantStatus(t, res, http.StatusOK)
		return res
	}
	first := poll()
	rendered := time.Now() // the map is also drawn again once a second of this host's time has passed
	before := st.showSeats.Load()

	const watchers = 50
	bodies := make([]string, watchers)
	var wg sync.WaitGroup
	for i := range watchers {
		wg.Go(func() { bodies[i] = a.client().get(path).body })
	}
	wg.Wait()
	for i, b := range bodies {
		if b != first.body {
			t.Fatalf("watcher %d got other bytes than the first", i)
		}
	}
	// A slow machine (the race detector) may take more than a second for
	// them: one read a second is then what is allowed.
	if n, most := st.showSeats.Load()-before, int64(time.Since(rendered)/time.Second); n > most {
		t.Errorf("%d seat map reads for %d watchers in %v, want at most %d", n, watchers, time.Since(rendered), most)
	}

	// Gzipped once for all: the same bytes, decoded, with the same ETag.
	gz := a.client().get(path, "Accept-Encoding", "gzip")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("ETag") != first.Header.Get("ETag") {
		t.Fatalf("gzipped answer: encoding %q, ETag %q (want gzip, %q)", gz.Header.Get("Content-Encoding"), gz.Header.Get("ETag"), first.Header.Get("ETag"))
	}
	zr, err := gzip.NewReader(bytes.NewReader([]byte(gz.body)))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || string(plain) != first.body {
		t.Errorf("the gzipped map decodes to %d bytes (%v), not the plain one's %d", len(plain), err, len(first.body))
	}
	wantStatus(t, a.client().get(path, "If-None-Match", first.Header.Get("ETag")), http.StatusNotModified)

	// A hold: the holder sees it at once, watchers within the second may not,
	// and after it do, with one more read for all of them.
	poll() // drawn again if a second passed: the map of before the hold
	rendered = time.Now()
	holder := a.client()
	holder.mustHold("C1", "C2", "C3")
	if got := seatStates(holder.get(path).doc(t))["C2"]; got != "mine" {
		t.Errorf("the holder sees C2 %q, want mine", got)
	}
	if got := seatStates(poll().doc(t))["C2"]; got != "available" && time.Since(rendered) < time.Second {
		t.Errorf("a watcher within the second sees C2 %q, want the map of before (available)", got)
	}
	a.clock.Advance(time.Second)
	reads := st.showSeats.Load()
	start := time.Now()
	for range 10 {
		if got := seatStates(poll().doc(t))["C2"]; got != "held" {
			t.Fatalf("a watcher a second later sees C2 %q, want held", got)
		}
	}
	if n, most := st.showSeats.Load()-reads, 1+int64(time.Since(start)/time.Second); n < 1 || n > most {
		t.Errorf("%d seat map reads for ten watchers a second later, want 1 (at most %d in %v)", n, most, time.Since(start))
	}
	res := a.client().get(path, "If-None-Match", first.Header.Get("ETag"))
	wantStatus(t, res, http.StatusOK)

	// An unknown show is 404, and not kept.
	wantStatus(t, a.client().get("/shows/nope/seats"), http.StatusNotFound)
	wantStatus(t, a.client().get("/shows/nope/seats"), http.StatusNotFound)
}
