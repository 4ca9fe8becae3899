package main

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// The crowd (-browsers): a crowd arriving for a sale, as SPEC §18 pictures
// it. Every browser opens the show's page and then polls its map fragment
// as the page's htmx does; some of them buy with the one-step best hold.
// With -onsale they first wait in the on-sale's queue.

// Request kinds whose counts the CPU sampler keeps, to share the
// processes' CPU among them.
const (
	kindPage = iota
	kindPoll
	kindHold
	kindQueue
	kindOther
	kinds
)

var kindNames = [kinds]string{"page", "poll", "hold", "queue", "other"}

func kindOf(route string) int {
	switch {
	case route == "page":
		return kindPage
	case strings.HasPrefix(route, "poll"):
		return kindPoll
	case route == "hold":
		return kindHold
	case route == "queue" || route == "join":
		return kindQueue
	}
	return kindOther
}

// adminAccount is the admin the processes create at start (-onsale).
type adminAccount struct{ email, password string }

// crowd is a crowd run's tallies beside the journey's.
type crowd struct {
	began    time.Time // the first browser's arrival
	onsaleID string
	t0       time.Time // the on-sale's opening

	counts [kinds]atomic.Int64

	arrived, watching, buying atomic.Int64
	joined, admitted          atomic.Int64
	polls200, polls304        atomic.Int64

	mu        sync.Mutex
	buyers    []*buyer
	queueEnd  map[string]int // the queue state browsers still waiting ended in
	lastAhead map[int]int    // browser: people ahead at its last reload
	admitWait []time.Duration

	cpu cpuRecord

	// From the database, after the run (check).
	firstHold, soldOut time.Time
	lostWhileFree      int
}

// buyer is one buyer's tries and what became of its hold.
type buyer struct {
	n, party int
	show     string
	tries    []try
	lostAll  bool
	holdID   string
	freedAt  time.Time // when its hold's seats were seen freed (Back, declined), zero when not seen
}

// try is one best hold.
type try struct {
	start, end time.Time
	status     int
}

func (c *crowd) count(route string) { c.counts[kindOf(route)].Add(1) }

func (c *crowd) freed(b *buyer, at time.Time) {
	c.mu.Lock()
	b.freedAt = at
	c.mu.Unlock()
}

// browserHeaders are what a browser sends with every request.
var browserHeaders = map[string]string{
	"User-Agent":      "Mozilla/5.0 (X11; Linux x86_64) boxoffice-loadtest",
	"Accept-Language": "en",
	"Accept-Encoding": "gzip, deflate, br, zstd",
}

// runCrowd creates the on-sale when asked, lets -browsers browsers arrive
// over -ramp, and stops them all when -duration has passed.
func (j *journey) runCrowd(ctx context.Context, stderr io.Writer) error {
	c := j.c
	j.crowd = &crowd{queueEnd: map[string]int{}, lastAhead: map[int]int{}}
	cr := j.crowd
	transport := &http.Transport{DialContext: loopbackDialer.DialContext, MaxIdleConnsPerHost: 512, IdleConnTimeout: time.Minute}
	defer transport.CloseIdleConnections()
	if c.onsale > 0 {
		if err := j.createOnsale(ctx, transport); err != nil {
			return err
		}
	}
	runCtx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	j.started = time.Now()
	cr.began = j.started
	cr.cpu.start(j.servers)
	stopSampler := cr.cpu.sample(j.servers, &cr.counts, time.Second)
	stopProgress := j.crowdProgress(stderr)
	var wg sync.WaitGroup
	for n := range c.browsers {
		at := j.started.Add(time.Duration(int64(c.ramp) * int64(n) / int64(c.browsers)))
		select {
		case <-time.After(time.Until(at)):
		case <-runCtx.Done():
		}
		if runCtx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.browse(runCtx, n, transport)
		}()
	}
	wg.Wait()
	stopSampler()
	cr.cpu.stop(j.servers)
	stopProgress()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// browse is one browser's visit: the show's page (after the queue, when
// the show is behind one), then polls of its map until the run ends; or,
// for a buyer, the best hold and what comes after it.
func (j *journey) browse(ctx context.Context, n int, transport http.RoundTripper) {
	cr := j.crowd
	cr.arrived.Add(1)
	rng := rand.New(rand.NewPCG(j.c.seed, uint64(n)))
	jar, _ := cookiejar.New(nil)
	b := &browser{j: j, ctx: ctx, addr: fmt.Sprintf("198.%d.%d.%d", 18+n>>16&1, n>>8&0xff, n&0xff),
		base: j.servers.procs[n%len(j.servers.procs)].url(), headers: browserHeaders,
		client: &http.Client{Transport: transport, Jar: jar, Timeout: j.c.timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	buys := rng.Float64() < j.c.buyers
	show := j.shows[rng.IntN(len(j.shows))]
	page := "/shows/" + show
	for range 3 { // the queue may send it back after a pass lapses
		p, queue, ok := b.openMap(page)
		switch {
		case !ok:
			if buys {
				j.end(b.failed())
			}
			return
		case queue != "":
			next, ok := b.waitInQueue(n, queue, page, rng)
			if !ok {
				return
			}
			page = next
			continue
		}
		if buys {
			cr.buying.Add(1)
			j.buy(b, n, show, p, rng)
			return
		}
		cr.watching.Add(1)
		queue = b.watch(page, p, rng)
		cr.watching.Add(-1)
		if queue == "" {
			return
		}
		next, ok := b.waitInQueue(n, queue, page, rng)
		if !ok {
			return
		}
		page = next
	}
}

// openMap GETs the show's page as a browser navigates to it and reads how
// its map polls; queue is where a 303 sent it instead (the on-sale's
// queue).
func (b *browser) openMap(page string) (p mapPoll, queue string, ok bool) {
	req, err := http.NewRequestWithContext(b.ctx, http.MethodGet, b.at(page), nil)
	if err != nil {
		b.j.fail("page", "bad url")
		return p, "", false
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	res, began, ok := b.send("page", req)
	if !ok {
		return p, "", false
	}
	defer res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode == http.StatusSeeOther && strings.Contains(loc, "/queue/") {
		io.Copy(io.Discard, res.Body)
		b.j.record("page", time.Since(began))
		return p, loc, true
	}
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		b.j.fail("page", fmt.Sprint(res.StatusCode))
		return p, "", false
	}
	body, err := decoded(res)
	if err == nil {
		p, err = readMapPage(body)
	}
	io.Copy(io.Discard, res.Body)
	b.j.record("page", time.Since(began))
	if err != nil {
		b.j.fail("page", "unreadable: "+err.Error())
		return p, "", false
	}
	if b.j.c.poll > 0 {
		p.every = b.j.c.poll
	}
	return p, "", true
}

// decoded is res's body as sent before its Content-Encoding (gzip or
// none: the server compresses with gzip only).
func decoded(res *http.Response) (io.Reader, error) {
	switch enc := res.Header.Get("Content-Encoding"); enc {
	case "", "identity":
		return res.Body, nil
	case "gzip":
		return gzip.NewReader(res.Body)
	default:
		return nil, fmt.Errorf("Content-Encoding %q", enc)
	}
}

// watch polls the map as the page's htmx does, every p.every with
// jitter, until the run ends: If-None-Match with the map's data-etag, the
// htmx headers, the CSRF token requests.js adds. A 200 carries the new
// map, whose data-etag the next poll sends. It returns the queue's URL
// when a poll is sent there (the pass lapsed), "" when the run ended.
func (b *browser) watch(page string, p mapPoll, rng *rand.Rand) (queue string) {
	etag := p.etag
	for {
		select {
		case <-b.ctx.Done():
			return ""
		case <-time.After(jitter(rng, p.every, 0.1)):
		}
		var ok bool
		etag, queue, ok = b.poll(page, p, etag)
		if queue != "" || !ok && b.ctx.Err() != nil {
			return queue
		}
	}
}

// poll is one poll of the map; it returns the data-etag to send next.
func (b *browser) poll(page string, p mapPoll, etag string) (string, string, bool) {
	req, err := http.NewRequestWithContext(b.ctx, http.MethodGet, b.at(p.url), nil)
	if err != nil {
		b.j.fail("poll", "bad url")
		return etag, "", false
	}
	h := req.Header
	h.Set("Accept", "*/*")
	h.Set("HX-Request", "true")
	h.Set("HX-Trigger", "seatmap")
	h.Set("HX-Target", "seatmap")
	h.Set("HX-Current-URL", b.at(page))
	h.Set("X-CSRF-Token", p.csrf)
	if etag != "" {
		h.Set("If-None-Match", etag)
	}
	res, began, ok := b.send("poll", req)
	if !ok {
		return etag, "", false
	}
	defer res.Body.Close()
	cr := b.j.crowd
	switch res.StatusCode {
	case http.StatusNotModified:
		io.Copy(io.Discard, res.Body)
		b.j.record("poll 304", time.Since(began))
		cr.polls304.Add(1)
		return etag, "", true
	case http.StatusOK:
		if loc := res.Header.Get("HX-Redirect"); strings.Contains(loc, "/queue/") {
			io.Copy(io.Discard, res.Body)
			b.j.record("poll 200", time.Since(began))
			return etag, loc, true
		}
		body, err := decoded(res)
		next := ""
		if err == nil {
			next, err = fragmentETag(body)
		}
		io.Copy(io.Discard, res.Body)
		b.j.record("poll 200", time.Since(began))
		cr.polls200.Add(1)
		if err != nil {
			b.j.fail("poll", "unreadable: "+err.Error())
			return etag, "", false
		}
		return next, "", true
	case http.StatusSeeOther:
		io.Copy(io.Discard, res.Body)
		b.j.record("poll 303", time.Since(began))
		if loc := res.Header.Get("Location"); strings.Contains(loc, "/queue/") {
			return etag, loc, true
		}
	}
	io.Copy(io.Discard, res.Body)
	b.j.fail("poll", fmt.Sprint(res.StatusCode))
	return etag, "", false
}

// buy holds the best seats for a party of 1 to -party in one step (SPEC
// §18), up to three tries a second or two apart with a look at the map
// between them, then reads the checkout and pays, declines, goes Back or
// walks away as a moviegoer does.
func (j *journey) buy(b *browser, n int, show string, p mapPoll, rng *rand.Rand) {
	rec := &buyer{n: n, show: show, party: 1 + rng.IntN(j.c.party)}
	b.rec = rec
	cr := j.crowd
	cr.mu.Lock()
	cr.buyers = append(cr.buyers, rec)
	cr.mu.Unlock()
	etag := p.etag
	for attempt := 0; ; attempt++ {
		t := try{start: time.Now()}
		status, loc, ok := b.holdBest(show, p.csrf, rec.party)
		t.end, t.status = time.Now(), status
		cr.mu.Lock()
		rec.tries = append(rec.tries, t)
		cr.mu.Unlock()
		switch {
		case !ok:
			j.end(b.failed())
			return
		case status == http.StatusSeeOther && strings.Contains(loc, "/queue/"):
			j.end("sent to the queue at hold")
			return
		case status == http.StatusSeeOther:
			j.holds.Add(1)
			cr.mu.Lock()
			rec.holdID = path.Base(loc)
			cr.mu.Unlock()
			doc, ok := b.getDoc("checkout", loc)
			if !ok {
				j.end(b.failed())
				return
			}
			var seats []string
			doc.Find(".checkout-seats [data-seat-id]").Each(func(_ int, s *goquery.Selection) { seats = append(seats, s.AttrOr("data-seat-id", "")) })
			csrf := doc.Find(`meta[name="csrf-token"]`).AttrOr("content", p.csrf)
			j.after(b, loc, seats, csrf, rng)
			return
		case status == http.StatusConflict:
			j.mu.Lock()
			j.lost[status]++
			j.mu.Unlock()
			if attempt == 2 {
				cr.mu.Lock()
				rec.lostAll = true
				cr.mu.Unlock()
				j.end(endLost)
				return
			}
		default:
			j.fail("hold", fmt.Sprint(status))
			j.end(b.failed())
			return
		}
		select {
		case <-b.ctx.Done():
			j.end(endCutOff)
			return
		case <-time.After(time.Second + time.Duration(rng.Int64N(int64(time.Second)))):
		}
		etag, _, _ = b.poll("/shows/"+show, p, etag)
	}
}

// waitInQueue joins the on-sale's queue at queue (once per browser: the
// cookie keeps the place), reloads its page every -queue-poll with jitter
// as the page does, and returns the show's page to go on to once
// admitted; ok is false when the run ended or the queue closed first.
func (b *browser) waitInQueue(n int, queue, page string, rng *rand.Rand) (next string, ok bool) {
	cr := b.j.crowd
	began := time.Now()
	v, ok := b.queuePage(queue, "")
	joined := false
	for ok {
		switch v.state {
		case queueOpen, queueBefore:
			if v.state == queueOpen && !joined && v.join != "" {
				status, loc, ok := b.post("join", v.join, url.Values{"_csrf": {v.csrf}})
				if !ok {
					return "", false
				}
				if status != http.StatusSeeOther && status != http.StatusOK {
					b.j.fail("join", fmt.Sprint(status))
					return "", false
				}
				joined = true
				cr.joined.Add(1)
				if loc == "" {
					loc = queue
				}
				v, ok = b.queuePage(loc, "")
				continue
			}
		case queueWaiting:
			if !joined {
				joined = true // came back with its place
			}
			cr.mu.Lock()
			cr.lastAhead[n] = v.ahead
			cr.mu.Unlock()
		case queueAdmitted:
			cr.admitted.Add(1)
			cr.mu.Lock()
			cr.admitWait = append(cr.admitWait, time.Since(began))
			delete(cr.lastAhead, n)
			cr.mu.Unlock()
			if v.next == "" {
				v.next = page
			}
			return v.next, true
		case queueClosed:
			b.j.end("queue closed")
			return "", false
		}
		select {
		case <-b.ctx.Done():
			cr.mu.Lock()
			cr.queueEnd[v.state]++
			cr.mu.Unlock()
			return "", false
		case <-time.After(jitter(rng, b.j.c.queuePoll, 0.15)):
		}
		v, ok = b.queuePage(queue, v.refresh)
	}
	return "", false
}

// queuePage GETs the queue's page, as htmx refreshes it when the page
// names a refresh URL, else as the page itself.
func (b *browser) queuePage(queue, refresh string) (queueView, bool) {
	target := queue
	if refresh != "" {
		target = refresh
	}
	req, err := http.NewRequestWithContext(b.ctx, http.MethodGet, b.at(target), nil)
	if err != nil {
		b.j.fail("queue", "bad url")
		return queueView{}, false
	}
	if refresh != "" {
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", b.at(queue))
	}
	res, began, ok := b.send("queue", req)
	if !ok {
		return queueView{}, false
	}
	defer res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode == http.StatusSeeOther && strings.HasPrefix(strings.TrimPrefix(loc, b.base), "/shows/") {
		io.Copy(io.Discard, res.Body)
		b.j.record("queue", time.Since(began))
		return queueView{state: queueAdmitted, next: loc}, true
	}
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		b.j.fail("queue", fmt.Sprint(res.StatusCode))
		return queueView{}, false
	}
	body, err := decoded(res)
	var v queueView
	if err == nil {
		v, err = readQueuePage(body)
	}
	io.Copy(io.Discard, res.Body)
	b.j.record("queue", time.Since(began))
	if err != nil {
		b.j.fail("queue", "unreadable: "+err.Error())
		return v, false
	}
	return v, true
}

// jitter is d ± share of d, at random.
func jitter(rng *rand.Rand, d time.Duration, share float64) time.Duration {
	spread := time.Duration(float64(d) * share)
	if spread <= 0 {
		return d
	}
	return d - spread + time.Duration(rng.Int64N(int64(2*spread+1)))
}

// errNoOnsales is the answer of a boxoffice without the waiting room.
var errNoOnsales = errors.New("-onsale: POST /admin/onsales answered 404: this boxoffice has no on-sales (SPEC §18's waiting room); run without -onsale, or build a binary that has them")

// createOnsale signs in as the processes' admin and creates an on-sale
// of the run's shows opening -onsale-opens from now, admitting -onsale a
// minute (SPEC §20, "on-sale").
func (j *journey) createOnsale(ctx context.Context, transport http.RoundTripper) error {
	jar, _ := cookiejar.New(nil)
	b := &browser{j: j, ctx: ctx, addr: "127.0.0.1", base: j.servers.procs[0].url(), headers: browserHeaders,
		client: &http.Client{Transport: transport, Jar: jar, Timeout: j.c.timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	doc, ok := b.getDoc("admin", "/admin/login")
	if !ok {
		return errors.New("-onsale: GET /admin/login failed")
	}
	csrf := doc.Find(`input[name="_csrf"]`).AttrOr("value", doc.Find(`meta[name="csrf-token"]`).AttrOr("content", ""))
	status, _, ok := b.post("admin", "/admin/login", url.Values{"_csrf": {csrf}, "email": {j.admin.email}, "password": {j.admin.password}})
	if !ok || status != http.StatusSeeOther {
		return fmt.Errorf("-onsale: signing in as %s answered %d", j.admin.email, status)
	}
	if doc, ok = b.getDoc("admin", "/admin"); !ok {
		return errors.New("-onsale: GET /admin after signing in failed")
	}
	t0 := time.Now().Add(j.c.onsaleOpens).Truncate(time.Second).Add(time.Second)
	form := url.Values{
		"_csrf":     {doc.Find(`meta[name="csrf-token"]`).AttrOr("content", "")},
		"name":      {"Load test on-sale"},
		"opens_at":  {t0.Format(time.RFC3339)},
		"closes_at": {t0.Add(j.c.duration + time.Hour).Format(time.RFC3339)},
		"rate":      {fmt.Sprint(j.c.onsale)},
		"pass_ttl":  {"15m"},
		"show":      j.shows,
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.at("/admin/onsales"), strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, ok := b.do("admin", req)
	if !ok {
		return errors.New("-onsale: POST /admin/onsales failed")
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	res.Body.Close()
	loc := res.Header.Get("Location")
	switch {
	case res.StatusCode == http.StatusNotFound:
		return errNoOnsales
	case res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "/admin/onsales/"):
		msg := ""
		if d, err := goquery.NewDocumentFromReader(strings.NewReader(string(body))); err == nil {
			msg = strings.Join(strings.Fields(d.Find(".notice, [role=alert], .field-error").Text()), " ")
		}
		return fmt.Errorf("-onsale: POST /admin/onsales answered %d (want 303 to /admin/onsales/{id}) %s", res.StatusCode, msg)
	}
	j.crowd.onsaleID = path.Base(loc)
	j.crowd.t0 = t0
	return nil
}

// holdBest presses the map's "Hold best seats" as its htmx does (SPEC
// §18): a form post into #seatmap-answer, answered 204 with HX-Redirect to
// the checkout (given back as a 303's Location, as b.post does), or 409
// with a message. Without JavaScript a browser would get the page.
func (b *browser) holdBest(show, csrf string, party int) (int, string, bool) {
	return b.post("hold", "/shows/"+show+"/holds", url.Values{"_csrf": {csrf}, "best": {fmt.Sprint(party)}},
		"HX-Request", "true", "HX-Target", "seatmap-answer",
		"HX-Current-URL", b.at("/shows/"+show+"?best="+fmt.Sprint(party)))
}
