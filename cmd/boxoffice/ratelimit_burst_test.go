package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/testkit"
)

// TestHoldBurstIsLimited (SPEC §8): one session fires 100 holds at once at
// the real binary with the default HOLD_RATE of 20 a minute. Exactly 20 get
// past the limiter; the other 80 are answered 429 with a Retry-After of 1
// to 60 seconds. Each hold asks for a seat of its own, so no answer is
// shaped by a conflict between them.
func TestHoldBurstIsLimited(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dbURL, path := tempDatabaseURL(t)

	const burst, rate = 100, 20
	show, seats := createShow(t, openStore(t, path), "Burst", burst)

	// HOLD_RATE is spelled out (20 is its default, which TestHelp checks)
	// so that a HOLD_RATE in the developer's environment cannot leak in.
	srv := serve(t, bin, "ADDR=127.0.0.1:0", "DATABASE_URL="+dbURL, "SEED_DEMO=false",
		"LOG_FORMAT=json", "HOLD_RATE="+strconv.Itoa(rate), "SEAT_GAPS=allow").URL

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		Transport:     &http.Transport{MaxIdleConnsPerHost: burst},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	token := seatMapCSRF(t, client, srv, show.ID)

	type answer struct {
		status     int
		retryAfter string
		err        error
	}
	answers := make([]answer, burst)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range burst {
		form := url.Values{"seat": {seats[i].ID}, "_csrf": {token}}.Encode()
		wg.Go(func() {
			<-start
			res, err := client.Post(srv+"/shows/"+show.ID+"/holds", "application/x-www-form-urlencoded", strings.NewReader(form))
			if err != nil {
				answers[i].err = err
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			answers[i] = answer{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After")}
		})
	}
	close(start)
	wg.Wait()

	passed, limited := 0, 0
	statuses := map[int]int{}
	for i, a := range answers {
		if a.err != nil {
			t.Fatalf("hold %d: %v", i+1, a.err)
		}
		statuses[a.status]++
		if a.status != http.StatusTooManyRequests {
			passed++
			if a.status != http.StatusSeeOther {
				t.Errorf("hold %d of %s = %d, want 303 (held) or 429", i+1, seats[i].ID, a.status)
			}
			continue
		}
		limited++
		if s, err := strconv.Atoi(a.retryAfter); err != nil || s < 1 || s > 60 {
			t.Errorf("hold %d: 429 with Retry-After %q, want 1 to 60 seconds", i+1, a.retryAfter)
		}
	}
	if passed != rate || limited != burst-rate {
		t.Errorf("%d holds in a burst: %d got past the limiter and %d were answered 429 (statuses %v); want %d and %d",
			burst, passed, limited, statuses, rate, burst-rate)
	}
}
