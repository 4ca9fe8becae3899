package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/config"
	"boxoffice/internal/testkit"
)

// TestOpenDatabaseGivesALimiter: main hands the web server a limiter that
// counts in the database, not one per process.
func TestOpenDatabaseGivesALimiter(t *testing.T) {
	_, path := tempDatabaseURL(t)
	ctx := context.Background()
	db, err := openDatabase(ctx, config.Database{Driver: config.DriverSQLite, Source: path}, "en")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Store.Close()
	if db.Limiter == nil {
		t.Fatal("openDatabase gave no Limiter: HOLD_RATE would count per process")
	}
	// A second open of the file counts against the same total.
	other, err := openDatabase(ctx, config.Database{Driver: config.DriverSQLite, Source: path}, "en")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Store.Close()
	for i, l := range []interface {
		Allow(context.Context, string, int, time.Duration) (bool, time.Duration, error)
	}{db.Limiter, other.Limiter, db.Limiter} {
		ok, _, err := l.Allow(ctx, "k", 2, time.Minute)
		if err != nil || ok != (i < 2) {
			t.Errorf("call %d = %v, %v; want allowed only for the first two", i+1, ok, err)
		}
	}
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`)

// seatMapCSRF loads a show's seat map at the server srv with client, which
// keeps the session cookie, and returns the page's CSRF token.
func seatMapCSRF(t *testing.T, client *http.Client, srv, showID string) string {
	t.Helper()
	res, err := client.Get(srv + "/shows/" + showID)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := csrfMeta.FindSubmatch(page)
	if res.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("GET seat map = %s, csrf token found: %v", res.Status, m != nil)
	}
	return string(m[1])
}

// TestHoldRateAcrossProcesses runs the real binary twice on one SQLite file
// with HOLD_RATE=3 and holds, with one session cookie, alternately through
// each: only 3 holds in all get through, and every other answer is 429 with
// Retry-After, from both processes. Counting per process would let 6 through.
func TestHoldRateAcrossProcesses(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dbURL, path := tempDatabaseURL(t)

	show, _ := createShow(t, openStore(t, path), "Rate Limited", 1)

	const rate = 3
	env := []string{"ADDR=127.0.0.1:0", "DATABASE_URL=" + dbURL, "SEED_DEMO=false",
		"LOG_FORMAT=json", "HOLD_RATE=" + strconv.Itoa(rate)}
	servers := []string{serve(t, bin, env...).URL, serve(t, bin, env...).URL}

	// One browser: cookies are shared by both servers on 127.0.0.1, and the
	// session lives in the database, so either process knows it.
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	token := seatMapCSRF(t, client, servers[0], show.ID)
	form := url.Values{"seat": {"A1"}, "_csrf": {token}}.Encode()

	const holds = 10
	var passed, limited [2]int
	for i := range holds {
		srv := servers[i%2]
		res, err := client.Post(srv+"/shows/"+show.ID+"/holds", "application/x-www-form-urlencoded", strings.NewReader(form))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		switch res.StatusCode {
		case http.StatusTooManyRequests:
			limited[i%2]++
			if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
				t.Errorf("hold %d via %s: 429 with Retry-After %q, want 1 to 60 seconds", i+1, srv, res.Header.Get("Retry-After"))
			}
		case http.StatusSeeOther: // held (again: a new hold replaces the session's last)
			passed[i%2]++
			if i >= rate {
				t.Errorf("hold %d via %s got through, after %d already had", i+1, srv, rate)
			}
		default:
			t.Fatalf("hold %d via %s = %s, want 303 or 429", i+1, srv, res.Status)
		}
	}
	if got := passed[0] + passed[1]; got != rate {
		t.Errorf("%d holds got through (%v per process), want %d in all", got, passed, rate)
	}
	if limited[0] == 0 || limited[1] == 0 {
		t.Errorf("429s per process = %v; want both processes to refuse", limited)
	}
}
