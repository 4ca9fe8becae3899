// Command loadtest drives the hold route of a boxoffice server on this
// machine with virtual users, each a browser with its own session cookie and
// CSRF token, and reports holds, conflicts and rate-limited requests per
// second with their latencies.
//
//	loadtest -url http://127.0.0.1:8080 -users 32 -duration 10s -mode spread
//
// It only ever talks to a loopback address: the URL must resolve to one, and
// every connection is checked again as it is dialled. It always stops by
// itself, after -duration or -max-requests.
//
//	loadtest journey -bin bin/boxoffice -procs 2 -moviegoers 2000 -kill
//
// runs a flash sale instead: it starts -procs boxoffice processes on a new
// SQLite file, sends moviegoers through the real routes (best available,
// hold, then pay in the sandbox, decline, Back or walk away), optionally
// SIGKILLs one process and starts it again, and at the end reads the file
// and checks the invariants (booking.CheckAudit, the bookings moviegoers saw
// confirmed, integrity_check). A violation fails the run with the evidence.
//
//	loadtest journey -bin bin/boxoffice -browsers 5000 -buyers 0.3 -ramp 60s -duration 3m [-onsale 300]
//
// runs a crowd instead (crowd.go): browsers that open the show's page and
// poll its map as the page's htmx does, some of them buying with the
// one-step best hold, optionally behind an on-sale's waiting room; the
// report adds the polls' 304s, timeouts and 5xx, when the show sold out,
// buyers who lost every try while a block was free, and the tool's CPU
// beside the processes'.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/PuerkitoBio/goquery"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
}

// config is what the flags set.
type config struct {
	url         *url.URL
	show        string
	users       int
	duration    time.Duration
	maxRequests int64
	seats       int
	mode        string // spread or flash
	release     int    // every release-th successful hold is released explicitly; 0 never
	hot         int    // flash: how many seat blocks everyone fights over; 0 means two rows' worth
	think       time.Duration
	forwarded   bool // give each user its own X-Forwarded-For address
	htmx        bool // send holds as htmx does: HX-Request, success is 200 with HX-Redirect
	timeout     time.Duration
}

func parseFlags(args []string, out io.Writer) (config, error) {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(out)
	var c config
	rawURL := fs.String("url", "http://127.0.0.1:8080", "base URL of the server; must resolve to a loopback address")
	fs.StringVar(&c.show, "show", "", "show id to load (default: the first showtime on sale on /)")
	fs.IntVar(&c.users, "users", 16, "virtual users, each with its own session and CSRF token")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to send holds (at most 1h)")
	fs.Int64Var(&c.maxRequests, "max-requests", 0, "stop after this many hold and release requests (0: only -duration)")
	fs.IntVar(&c.seats, "seats", 4, "seats per hold")
	fs.StringVar(&c.mode, "mode", "spread", "spread: each user rotates over its own seat blocks; flash: everyone fights for the same few rows")
	fs.IntVar(&c.release, "release", 2, "release every n-th successful hold with POST /holds/{id}/release (the others are replaced by the user's next hold); 0: never")
	fs.IntVar(&c.hot, "hot", 0, "flash mode: number of seat blocks fought over (default: the blocks of the first two rows)")
	fs.DurationVar(&c.think, "think", 0, "pause of each user between its requests")
	fs.BoolVar(&c.forwarded, "forwarded-for", false, "send each user's requests with its own X-Forwarded-For address from 198.18.0.0/15, so per-address limits count users apart (only if the server trusts a loopback proxy)")
	fs.BoolVar(&c.htmx, "htmx", false, "send holds as the page's htmx does (HX-Request; a conflict answers the seat map fragment, not the page)")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "timeout of one request")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case c.users < 1 || c.users > 100000:
		return c, errors.New("-users must be between 1 and 100000")
	case c.duration <= 0 || c.duration > time.Hour:
		return c, errors.New("-duration must be positive and at most 1h")
	case c.maxRequests < 0:
		return c, errors.New("-max-requests must not be negative")
	case c.seats < 1:
		return c, errors.New("-seats must be at least 1")
	case c.mode != "spread" && c.mode != "flash":
		return c, fmt.Errorf("-mode %q: want spread or flash", c.mode)
	case c.release < 0 || c.hot < 0 || c.think < 0 || c.timeout <= 0:
		return c, errors.New("-release, -hot and -think must not be negative, -timeout must be positive")
	}
	u, err := url.Parse(*rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("-url %q: want http://host:port", *rawURL)
	}
	u.Path, u.RawQuery, u.Fragment = strings.TrimSuffix(u.Path, "/"), "", ""
	c.url = u
	return c, nil
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "journey" {
		return runJourney(ctx, args[1:], stdout, os.Stderr)
	}
	c, err := parseFlags(args, stdout)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if err := checkLoopback(ctx, c.url.Hostname()); err != nil {
		return err
	}
	r, err := load(ctx, c)
	if err != nil {
		return err
	}
	r.print(stdout, c)
	return nil
}

// checkLoopback refuses a host that is not, or does not resolve only to,
// loopback addresses: this tool may only load-test its own machine.
func checkLoopback(ctx context.Context, host string) error {
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return fmt.Errorf("refusing %q: %w", host, err)
	}
	for _, a := range addrs {
		if !a.IP.IsLoopback() {
			return fmt.Errorf("refusing %q: it resolves to %s, not a loopback address; this tool only load-tests its own machine", host, a.IP)
		}
	}
	if len(addrs) == 0 {
		return fmt.Errorf("refusing %q: no address", host)
	}
	return nil
}

// loopbackDialer dials only loopback addresses, whatever DNS says by then.
var loopbackDialer = &net.Dialer{
	Timeout: 5 * time.Second,
	Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("refusing to dial %s: not a loopback address", address)
		}
		return nil
	},
}

// Outcomes of a request.
const (
	held        = "held"         // hold answered 2xx or 303
	conflict    = "conflict"     // hold answered 409
	rateLimited = "rate_limited" // 429
	released    = "released"     // release answered 303
	other       = "other"        // anything else, errors included
)

var outcomes = []string{held, conflict, rateLimited, released, other}

// user is one virtual browser.
type user struct {
	id     int
	client *http.Client
	csrf   string
	addr   string // X-Forwarded-For, when asked
	htmx   bool
	blocks [][]string
	lat    map[string][]time.Duration
	others map[string]int // "other" outcomes by status or error
}

// report is the result of a run.
type report struct {
	show    string
	setup   time.Duration
	elapsed time.Duration
	blocks  int
	lat     map[string][]time.Duration // sorted
	others  map[string]int
}

func (r *report) count(outcome string) int { return len(r.lat[outcome]) }

func (r *report) total() int {
	n := 0
	for _, o := range outcomes {
		n += r.count(o)
	}
	return n
}

// load sets up c.users users (each loads the seat map page, which gives it
// a session and its CSRF token), then lets them send holds until the
// duration or the request budget is spent.
func load(ctx context.Context, c config) (*report, error) {
	transport := &http.Transport{
		DialContext:         loopbackDialer.DialContext,
		MaxIdleConns:        c.users + 16,
		MaxIdleConnsPerHost: c.users + 16,
		IdleConnTimeout:     time.Minute,
	}
	defer transport.CloseIdleConnections()
	newClient := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{
			Transport:     transport,
			Jar:           jar,
			Timeout:       c.timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	began := time.Now()
	r := &report{show: c.show, lat: map[string][]time.Duration{}, others: map[string]int{}}
	if r.show == "" {
		doc, err := getDoc(ctx, newClient(), c.url.String()+"/", "")
		if err != nil {
			return nil, fmt.Errorf("home page: %w", err)
		}
		r.show = homeShow(doc)
		if r.show == "" {
			return nil, errors.New("home page: no showtime on sale; pass -show")
		}
	}
	showURL := c.url.String() + "/shows/" + url.PathEscape(r.show)

	users := make([]*user, c.users)
	var blocks [][]string
	var setupErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8) // the setup page is heavier than a hold
	for i := range users {
		u := &user{id: i, client: newClient(), htmx: c.htmx, lat: map[string][]time.Duration{}, others: map[string]int{}}
		if c.forwarded {
			u.addr = fmt.Sprintf("198.%d.%d.%d", 18+i>>16&1, i>>8&0xff, i&0xff)
		}
		users[i] = u
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			doc, err := getDoc(ctx, u.client, showURL, u.addr)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				setupErr = errors.Join(setupErr, fmt.Errorf("user %d: seat map: %w", u.id, err))
				return
			}
			u.csrf, _ = doc.Find(`meta[name="csrf-token"]`).Attr("content")
			if u.csrf == "" {
				setupErr = errors.Join(setupErr, fmt.Errorf("user %d: no csrf-token meta on the seat map page", u.id))
			}
			if blocks == nil {
				blocks = seatBlocks(doc, c.seats)
			}
		}()
	}
	wg.Wait()
	if setupErr != nil {
		return nil, setupErr
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("show %s has no %d adjacent available seats in a row", r.show, c.seats)
	}
	r.blocks = len(blocks)
	if c.mode == "flash" {
		hot := c.hot
		if hot == 0 {
			hot = 2 * rowBlocks(blocks)
		}
		blocks = blocks[:min(hot, len(blocks))]
	}
	for i, u := range users {
		if c.mode == "flash" {
			u.blocks = blocks // each user picks among all of them
			continue
		}
		for b := i % len(blocks); b < len(blocks); b += c.users {
			u.blocks = append(u.blocks, blocks[b])
		}
	}
	r.setup = time.Since(began)

	runCtx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	var budget atomic.Int64
	budget.Store(c.maxRequests)
	take := func() bool { return c.maxRequests == 0 || budget.Add(-1) >= 0 }
	start := time.Now()
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.run(ctx, runCtx.Done(), c, showURL, take)
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	for _, u := range users {
		for o, l := range u.lat {
			r.lat[o] = append(r.lat[o], l...)
		}
		for k, n := range u.others {
			r.others[k] += n
		}
	}
	for _, l := range r.lat {
		slices.Sort(l)
	}
	return r, nil
}

// seatBlocks cuts each row of the seat map into blocks of n adjacent seats
// that are available (or the viewer's own), in map order.
func seatBlocks(doc *goquery.Document, n int) [][]string {
	var blocks [][]string
	doc.Find("#seatmap .row").Each(func(_ int, row *goquery.Selection) {
		var run []string
		row.Find("[data-seat-id]").Each(func(_ int, s *goquery.Selection) {
			if st, _ := s.Attr("data-state"); st != "available" && st != "mine" {
				run = run[:0]
				return
			}
			id, _ := s.Attr("data-seat-id")
			run = append(run, id)
			if len(run) == n {
				blocks = append(blocks, run)
				run = nil
			}
		})
	})
	return blocks
}

// rowBlocks is the number of blocks in the first row of blocks.
func rowBlocks(blocks [][]string) int {
	row := func(id string) string { return strings.TrimRight(id, "0123456789") }
	n := 1
	for n < len(blocks) && row(blocks[n][0]) == row(blocks[0][0]) {
		n++
	}
	return n
}

// run sends holds until done is closed or the budget is spent. A request
// under way when done closes is finished and counted, so that the counts
// are what the server did; only ctx (an interrupt) cuts one short. In
// spread mode the user takes its blocks in turn; in flash mode a
// pseudo-random one of the hot blocks. Every c.release-th success is
// released explicitly; the other holds are replaced by the user's next one.
func (u *user) run(ctx context.Context, done <-chan struct{}, c config, showURL string, take func() bool) {
	over := func() bool {
		select {
		case <-done:
			return true
		default:
			return ctx.Err() != nil
		}
	}
	successes := 0
	for i := 0; !over() && take(); i++ {
		var block []string
		if c.mode == "flash" {
			block = u.blocks[(u.id*7919+i*104729)%len(u.blocks)]
		} else {
			block = u.blocks[i%len(u.blocks)]
		}
		form := url.Values{"_csrf": {u.csrf}, "seat": block}
		status, loc, d, err := u.post(ctx, showURL+"/holds", form)
		if ctx.Err() != nil && err != nil {
			return // the run ended during the request: not an outcome
		}
		outcome := classify(status, err, held)
		u.record(outcome, status, err, d)
		if outcome == held {
			successes++
			if c.release > 0 && successes%c.release == 0 && loc != "" && !over() && take() {
				relURL := c.url.Scheme + "://" + c.url.Host + loc + "/release"
				status, _, d, err := u.post(ctx, relURL, url.Values{"_csrf": {u.csrf}})
				if ctx.Err() != nil && err != nil {
					return
				}
				u.record(classify(status, err, released), status, err, d)
			}
		}
		if c.think > 0 {
			select {
			case <-done:
			case <-time.After(c.think):
			}
		}
	}
}

// classify names the outcome of a request whose success is called ok.
func classify(status int, err error, ok string) string {
	switch {
	case err != nil:
		return other
	case status == http.StatusSeeOther || status >= 200 && status < 300:
		return ok
	case status == http.StatusConflict && ok == held:
		return conflict
	case status == http.StatusTooManyRequests:
		return rateLimited
	}
	return other
}

func (u *user) record(outcome string, status int, err error, d time.Duration) {
	u.lat[outcome] = append(u.lat[outcome], d)
	if outcome != other {
		return
	}
	key := fmt.Sprintf("status %d", status)
	if err != nil {
		key = "error: " + err.Error()
		if len(key) > 80 {
			key = key[:80]
		}
	}
	u.others[key]++
}

// post sends a form and returns the status, the Location header and the
// time until the body was read.
func (u *user) post(ctx context.Context, target string, form url.Values) (int, string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if u.addr != "" {
		req.Header.Set("X-Forwarded-For", u.addr)
	}
	if u.htmx {
		req.Header.Set("HX-Request", "true")
	}
	start := time.Now()
	res, err := u.client.Do(req)
	if err != nil {
		return 0, "", time.Since(start), err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	loc := res.Header.Get("Location")
	if loc == "" {
		loc = res.Header.Get("HX-Redirect")
	}
	return res.StatusCode, loc, time.Since(start), err
}

// homeShow is the first show of the listing on / that can be held: a
// showtime link on sale (not data-availability="sold-out", and without the
// data-opens-at of one whose sales have not opened), else "".
func homeShow(doc *goquery.Document) string {
	id, _ := doc.Find("a[data-show-id]:not([data-opens-at]):not([data-availability=sold-out])").First().Attr("data-show-id")
	return id
}

// getDoc GETs a page and parses it; anything but 200 is an error.
func getDoc(ctx context.Context, client *http.Client, target, addr string) (*goquery.Document, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	if addr != "" {
		req.Header.Set("X-Forwarded-For", addr)
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d", target, res.StatusCode)
	}
	return goquery.NewDocumentFromReader(res.Body)
}

func (r *report) print(w io.Writer, c config) {
	secs := r.elapsed.Seconds()
	fmt.Fprintf(w, "show %s, mode %s, %d users, %d seats a hold, %d blocks on the map, htmx %v; setup %v\n",
		r.show, c.mode, c.users, c.seats, r.blocks, c.htmx, r.setup.Round(time.Millisecond))
	fmt.Fprintf(w, "%d requests in %v: %.0f/s\n", r.total(), r.elapsed.Round(time.Millisecond), float64(r.total())/secs)
	fmt.Fprintf(w, "%-13s %8s %9s %9s %9s %9s %9s\n", "outcome", "count", "per s", "p50", "p90", "p99", "max")
	for _, o := range outcomes {
		l := r.lat[o]
		if len(l) == 0 {
			fmt.Fprintf(w, "%-13s %8d %9.0f\n", o, 0, 0.0)
			continue
		}
		fmt.Fprintf(w, "%-13s %8d %9.1f %9s %9s %9s %9s\n", o, len(l), float64(len(l))/secs,
			pct(l, 50), pct(l, 90), pct(l, 99), l[len(l)-1].Round(time.Microsecond))
	}
	for _, k := range slices.Sorted(maps.Keys(r.others)) {
		fmt.Fprintf(w, "  other: %s ×%d\n", k, r.others[k])
	}
}

// pct is the p-th percentile of sorted l.
func pct(l []time.Duration, p int) time.Duration {
	return l[min(len(l)-1, len(l)*p/100)].Round(time.Microsecond)
}
