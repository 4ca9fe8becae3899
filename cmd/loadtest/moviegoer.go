package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// moviegoer is one person's visit: best available for a party, hold it
// (trying again when someone else was quicker), then pay, decline, go back
// or walk away.
func (j *journey) moviegoer(ctx context.Context, n int, transport http.RoundTripper, rng *rand.Rand) {
	jar, _ := cookiejar.New(nil)
	b := &browser{j: j, ctx: ctx, addr: fmt.Sprintf("198.%d.%d.%d", 18+n>>16&1, n>>8&0xff, n&0xff),
		base:   j.servers.procs[n%len(j.servers.procs)].url(),
		client: &http.Client{Transport: transport, Jar: jar, Timeout: j.c.timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	party := 1 + rng.IntN(j.c.party)
	show := j.shows[rng.IntN(len(j.shows))]
	for try := 0; ; try++ {
		doc, ok := b.getDoc("best", "/shows/"+show+"?best="+fmt.Sprint(party))
		if !ok {
			j.end(b.failed())
			return
		}
		var seats []string
		doc.Find("[data-suggested]").Each(func(_ int, s *goquery.Selection) { seats = append(seats, s.AttrOr("data-seat-id", "")) })
		if len(seats) == 0 {
			if doc.Find(`[data-seat-id][data-state="available"]`).Length() == 0 {
				j.markSoldOut()
				j.end(endSoldOut)
			} else {
				j.end(endNoBlock)
			}
			return
		}
		csrf := doc.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
		status, loc, ok := b.post("hold", "/shows/"+show+"/holds", url.Values{"_csrf": {csrf}, "seat": seats})
		switch {
		case !ok:
			j.end(b.failed())
			return
		case status == http.StatusSeeOther:
			if j.holds.Add(1) == j.killAt && j.killNow != nil && j.killed.CompareAndSwap(false, true) {
				close(j.killNow)
			}
			j.after(b, loc, seats, csrf, rng)
			return
		case status == http.StatusConflict || status == http.StatusUnprocessableEntity:
			j.mu.Lock()
			j.lost[status]++
			j.mu.Unlock()
			if try == 2 {
				j.end(endLost)
				return
			}
		default:
			j.fail("hold", fmt.Sprint(status))
			j.end(b.failed())
			return
		}
	}
}

// after is what a moviegoer with a hold at checkout path does next.
func (j *journey) after(b *browser, checkout string, seats []string, csrf string, rng *rand.Rand) {
	r := rng.Float64()
	switch {
	case r < j.c.pay:
		j.pay(b, checkout, seats, csrf, "succeed")
	case r < j.c.pay+j.c.decline:
		j.pay(b, checkout, seats, csrf, "decline")
	case r < j.c.pay+j.c.decline+j.c.back:
		status, _, ok := b.post("release", checkout+"/release", url.Values{"_csrf": {csrf}})
		if !ok || status != http.StatusSeeOther {
			if ok {
				j.fail("release", fmt.Sprint(status))
			}
			j.end(b.failed())
			return
		}
		b.freed()
		j.end(endBack)
	default:
		j.end(endWalked)
	}
}

// pay gives an email at Pay, takes the sandbox's outcome, and reads the
// booking page until it is settled.
func (j *journey) pay(b *browser, checkout string, seats []string, csrf, outcome string) {
	n := j.done.Load()
	status, sandbox, ok := b.post("pay", checkout+"/pay", url.Values{"_csrf": {csrf}, "email": {fmt.Sprintf("moviegoer%d@example.com", n)}})
	if !ok || status != http.StatusSeeOther {
		if ok && status == http.StatusGone {
			j.end("hold gone at Pay")
			return
		}
		if ok {
			j.fail("pay", fmt.Sprint(status))
		}
		j.end(b.failed())
		return
	}
	doc, ok := b.getDoc("sandbox page", sandbox)
	if !ok {
		j.end(b.failed())
		return
	}
	form := doc.Find("form.sandbox__actions")
	action := form.AttrOr("action", "")
	status, bookingURL, ok := b.post("sandbox pay", action, url.Values{"_csrf": {form.Find(`input[name="_csrf"]`).AttrOr("value", "")}, "outcome": {outcome}})
	if !ok || status != http.StatusSeeOther {
		if ok {
			j.fail("sandbox pay", fmt.Sprint(status))
		}
		j.end(b.failed())
		return
	}
	for range 100 {
		doc, ok := b.getDoc("booking", bookingURL)
		if !ok {
			j.end(b.failed())
			return
		}
		el := doc.Find("[data-booking-id]").First()
		switch state := el.AttrOr("data-state", ""); state {
		case "pending":
			time.Sleep(50 * time.Millisecond)
			continue
		case "confirmed":
			j.mu.Lock()
			j.confirmed[el.AttrOr("data-booking-id", "")] = seats
			j.mu.Unlock()
			j.booked.Add(1)
			j.end(endPaid)
		case "failed":
			b.freed()
			if outcome == "decline" {
				j.end(endDeclined)
			} else {
				j.end(endPaidFailed)
			}
		default:
			j.end("paid, " + state)
		}
		return
	}
	j.end(endStillPending)
}

// served is what the answers say went wrong on the servers' side: any 5xx
// (a killed process refuses connections; it answers no 5xx), and a payment
// the sandbox took whose booking then failed.
func (j *journey) served() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var bad []string
	for _, k := range slices.Sorted(maps.Keys(j.errs)) {
		if status := k[strings.LastIndexByte(k, ' ')+1:]; len(status) == 3 && status[0] == '5' {
			bad = append(bad, fmt.Sprintf("%d answers %s", j.errs[k], k))
		}
	}
	if n := j.outcomes[endPaidFailed]; n > 0 {
		bad = append(bad, fmt.Sprintf("%d payments the sandbox took ended in a failed booking", n))
	}
	return bad
}

func (j *journey) end(outcome string) {
	j.mu.Lock()
	j.outcomes[outcome]++
	j.mu.Unlock()
}

func (j *journey) fail(route, why string) {
	j.mu.Lock()
	j.errs[route+" "+why]++
	j.mu.Unlock()
}

func (j *journey) markSoldOut() {
	j.mu.Lock()
	if j.soldOut == 0 {
		j.soldOut = time.Since(j.started)
	}
	j.mu.Unlock()
}

// failed is how a journey that failed ended: an error, or cut off by the
// end of the run.
func (b *browser) failed() string {
	if b.ctx.Err() != nil {
		return endCutOff
	}
	return endError
}

// browser is one moviegoer's browser: cookies, address, the process it
// talks to.
type browser struct {
	j       *journey
	ctx     context.Context
	client  *http.Client
	addr    string
	base    string
	headers map[string]string // sent with every request, as a browser does (crowd)
	rec     *buyer            // the crowd's record of this buyer, nil for a moviegoer
}

// freed notes that b's hold let its seats go by now (crowd: the check of
// buyers who lost every try needs when seats were freed).
func (b *browser) freed() {
	if b.rec != nil {
		b.j.crowd.freed(b.rec, time.Now())
	}
}

func (b *browser) do(route string, req *http.Request) (*http.Response, bool) {
	res, began, ok := b.send(route, req)
	if ok {
		b.j.record(route, time.Since(began))
	}
	return res, ok
}

// send sends req from b's address and returns the answer and when it was
// sent; a transport error is counted against route as a timeout or an
// error (unless the run was ending), and is not a latency.
func (b *browser) send(route string, req *http.Request) (*http.Response, time.Time, bool) {
	req.Header.Set("X-Forwarded-For", b.addr)
	for k, v := range b.headers {
		if req.Header.Get(k) == "" {
			req.Header.Set(k, v)
		}
	}
	began := time.Now()
	res, err := b.client.Do(req)
	if err != nil {
		if b.ctx.Err() == nil { // not cut off by the end of the run
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				b.j.fail(route, "timeout")
			} else {
				b.j.fail(route, "error")
			}
		}
		return nil, began, false
	}
	return res, began, true
}

// record keeps a request's latency under route.
func (j *journey) record(route string, d time.Duration) {
	j.mu.Lock()
	j.lat[route] = append(j.lat[route], d)
	j.mu.Unlock()
	if j.crowd != nil {
		j.crowd.count(route)
	}
}

// at is path on b's process, or path itself when it is a whole URL (a
// Location may be either).
func (b *browser) at(path string) string {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	return b.base + path
}

func (b *browser) getDoc(route, path string) (*goquery.Document, bool) {
	req, err := http.NewRequestWithContext(b.ctx, http.MethodGet, b.at(path), nil)
	if err != nil {
		b.j.fail(route, "bad url")
		return nil, false
	}
	res, ok := b.do(route, req)
	if !ok {
		return nil, false
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		b.j.fail(route, fmt.Sprint(res.StatusCode))
		return nil, false
	}
	body, err := decoded(res) // a crowd's browser asks for gzip
	if err != nil {
		b.j.fail(route, "body")
		return nil, false
	}
	doc, err := goquery.NewDocumentFromReader(body)
	if err != nil {
		b.j.fail(route, "body")
		return nil, false
	}
	return doc, true
}

// post posts form, with headers as name, value pairs, and returns the
// status and where it redirects (Location, or htmx's HX-Redirect as a 303).
func (b *browser) post(route, path string, form url.Values, headers ...string) (int, string, bool) {
	req, err := http.NewRequestWithContext(b.ctx, http.MethodPost, b.at(path), strings.NewReader(form.Encode()))
	if err != nil {
		b.j.fail(route, "bad url")
		return 0, "", false
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, ok := b.do(route, req)
	if !ok {
		return 0, "", false
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if loc := res.Header.Get("HX-Redirect"); loc != "" {
		// htmx's answer to a form it posted: the redirect a browser
		// without JavaScript gets as a 303.
		return http.StatusSeeOther, loc, true
	}
	return res.StatusCode, res.Header.Get("Location"), true
}
