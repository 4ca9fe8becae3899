package payment

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// receiver is the app's side of the callback in these tests: a real HTTP
// server that answers attempt n with script[n] (the last entry repeats)
// and records what arrived.
type receiver struct {
	t      testing.TB
	srv    *httptest.Server
	script []int // status per attempt; 0 drops the connection instead

	mu       sync.Mutex
	arrivals []arrival
	got      chan arrival
}

type arrival struct {
	at        time.Time
	signature string
	body      []byte
}

func newReceiver(t testing.TB, script ...int) *receiver {
	t.Helper()
	rc := &receiver{t: t, script: script, got: make(chan arrival, 100)}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != CallbackPath {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, MaxCallbackBytes+1))
	a := arrival{at: time.Now(), signature: r.Header.Get(SignatureHeader), body: body}
	rc.mu.Lock()
	n := len(rc.arrivals)
	rc.arrivals = append(rc.arrivals, a)
	rc.mu.Unlock()
	status := rc.script[min(n, len(rc.script)-1)]
	if status == 0 {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			rc.t.Errorf("hijack: %v", err)
			return
		}
		conn.Close() // the sender sees a network failure, not a status
		return
	}
	w.WriteHeader(status)
	rc.got <- a
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.arrivals)
}

func (rc *receiver) all() []arrival {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]arrival(nil), rc.arrivals...)
}

// testSandbox returns a sandbox of world w (a new one when nil), calling
// back to publicURL, on w's fake clock (at t0 until a test moves it),
// with fast deterministic backoff: 20ms, doubling.
func testSandbox(t testing.TB, publicURL string, w *world, retryFor time.Duration) *Sandbox {
	t.Helper()
	if w == nil {
		nw := newWorld(t)
		w = &nw
	}
	s, err := NewSandbox(SandboxOptions{
		PublicURL: publicURL,
		Secret:    secret,
		Payments:  w.store,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock:     w.clock.Now,
		RetryFor:  retryFor,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.backoff = backoff{First: 20 * time.Millisecond, Max: time.Second}
	t.Cleanup(func() { s.Close() })
	return s
}

// testPayment is a payment no store needs to know (the checkout tests).
var testPayment = booking.Payment{ID: "pay1", HoldID: "hold1", BookingID: "bk1", Owner: "visitor1",
	Amount: 45000, Currency: "INR", State: booking.PaymentPending, CreatedAt: t0}

// deliver runs one Deliver and fails the test on its error.
func deliver(t testing.TB, s *Sandbox) int {
	t.Helper()
	n, err := s.Deliver(context.Background(), 0)
	if err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	return n
}

// outbound is payment p's callback as stored.
func outbound(t testing.TB, w world, p booking.Payment) booking.OutboundCallback {
	t.Helper()
	c, err := w.store.OutboundCallback(context.Background(), p.ID)
	if err != nil {
		t.Fatalf("OutboundCallback(%s): %v", p.ID, err)
	}
	return c
}

// TestDeliverRetriesWithBackoff: a callback answered 5xx, or whose
// connection drops, is due again after a backoff that doubles (20ms,
// 40ms, …), each failure recorded; the same body arrives each time, signed
// afresh, until it is answered 2xx and recorded delivered.
func TestDeliverRetriesWithBackoff(t *testing.T) {
	ctx := context.Background()
	rc := newReceiver(t, 500, 0, 503, 200)
	w := newWorld(t)
	p := w.payment(t)
	s := testSandbox(t, rc.srv.URL, &w, 10*time.Second)
	if _, err := s.Decide(ctx, p.ID, true); err != nil {
		t.Fatalf("Decide: %v", err)
	}
	c := outbound(t, w, p)
	if c.Type != booking.EventPaymentSucceeded || !c.NextAt.Equal(t0) || c.Attempts != 0 {
		t.Fatalf("the recorded callback: %+v; want a success due at once", c)
	}

	waits := []time.Duration{20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond}
	errs := []string{"answered 500", "EOF", "answered 503"}
	for i, wait := range waits {
		if n := deliver(t, s); n != 0 || rc.count() != i+1 {
			t.Fatalf("attempt %d: delivered %d, receiver saw %d", i+1, n, rc.count())
		}
		c = outbound(t, w, p)
		if !c.NextAt.Equal(w.clock.Now().Add(wait)) || !c.ClaimedUntil.IsZero() || c.Attempts != i+1 || !strings.Contains(c.LastError, errs[i]) {
			t.Fatalf("after attempt %d: next %v (want now+%v), claimed until %v, attempts %d, error %q (want %q)",
				i+1, c.NextAt, wait, c.ClaimedUntil, c.Attempts, c.LastError, errs[i])
		}
		w.clock.Advance(wait - time.Millisecond)
		if n := deliver(t, s); n != 0 || rc.count() != i+1 {
			t.Fatalf("a retry came before its backoff: receiver saw %d", rc.count())
		}
		w.clock.Advance(time.Millisecond)
	}
	if n := deliver(t, s); n != 1 {
		t.Fatalf("the fourth attempt delivered %d, want 1", n)
	}
	c = outbound(t, w, p)
	if !c.DeliveredAt.Equal(w.clock.Now()) || c.LastError != "" || !c.GaveUpAt.IsZero() || c.Attempts != 4 {
		t.Errorf("after delivery: %+v", c)
	}
	got := rc.all()
	for i, a := range got {
		if !bytes.Equal(a.body, c.Body) {
			t.Errorf("attempt %d body = %s, want %s", i+1, a.body, c.Body)
		}
		if err := Verify([][]byte{secret}, a.signature, a.body, w.clock.Now(), DefaultTolerance); err != nil {
			t.Errorf("attempt %d signature: %v", i+1, err)
		}
	}
	n, err := s.VerifyCallback(http.Header{SignatureHeader: {got[3].signature}}, got[3].body, w.clock.Now())
	if err != nil {
		t.Fatalf("VerifyCallback of the delivered callback: %v", err)
	}
	if pe := *n.Payment; pe.ID != c.EventID || pe.PaymentID != p.ID || pe.Type != booking.EventPaymentSucceeded {
		t.Errorf("delivered event = %+v, want %s of %s", pe, c.EventID, p.ID)
	}
	w.clock.Advance(time.Hour)
	if n := deliver(t, s); n != 0 || rc.count() != 4 {
		t.Errorf("a delivered callback was posted again: receiver saw %d", rc.count())
	}
}

// TestDeliverStopsOnRefusal: a 4xx other than 408 and 429 is given up at
// once, with why (no retry can change what the receiver refused); 408 and
// 429 are retried.
func TestDeliverStopsOnRefusal(t *testing.T) {
	for _, status := range []int{400, 401, 404, 409, 422, 408, 429} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			rc := newReceiver(t, status, 200)
			w := newWorld(t)
			p := w.payment(t)
			s := testSandbox(t, rc.srv.URL, &w, time.Minute)
			if _, err := s.Decide(context.Background(), p.ID, true); err != nil {
				t.Fatal(err)
			}
			deliver(t, s)
			c := outbound(t, w, p)
			w.clock.Advance(time.Minute / 2)
			again := deliver(t, s)
			if status == 408 || status == 429 {
				if !c.GaveUpAt.IsZero() || !strings.Contains(c.LastError, "answered "+strconv.Itoa(status)) {
					t.Errorf("after %d: %+v; want due again", status, c)
				}
				if again != 1 || rc.count() != 2 {
					t.Errorf("the retry after %d delivered %d; receiver saw %d", status, again, rc.count())
				}
				return
			}
			want := "refused: answered " + strconv.Itoa(status)
			if !c.GaveUpAt.Equal(t0) || c.LastError != want || !c.DeliveredAt.IsZero() {
				t.Errorf("after %d: gave up at %v, error %q; want given up at once, %q", status, c.GaveUpAt, c.LastError, want)
			}
			if again != 0 || rc.count() != 1 {
				t.Errorf("a refused callback was tried again: receiver saw %d", rc.count())
			}
		})
	}
}

// TestDeliverGivesUpAfterRetryFor: a callback that keeps failing is given
// up once its next attempt would come later than RetryFor after the
// moviegoer chose, with why; none is posted after.
func TestDeliverGivesUpAfterRetryFor(t *testing.T) {
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + dead.Addr().String()
	dead.Close() // connection refused from now on
	failing := newReceiver(t, 500)

	for name, url := range map[string]string{"always 500": failing.srv.URL, "connection refused": deadURL} {
		t.Run(name, func(t *testing.T) {
			const retryFor = 500 * time.Millisecond
			w := newWorld(t)
			p := w.payment(t)
			s := testSandbox(t, url, &w, retryFor)
			if _, err := s.Decide(context.Background(), p.ID, false); err != nil {
				t.Fatal(err)
			}
			var c booking.OutboundCallback
			for range 20 {
				deliver(t, s)
				if c = outbound(t, w, p); !c.GaveUpAt.IsZero() {
					break
				}
				w.clock.Set(c.NextAt)
			}
			if c.GaveUpAt.IsZero() || c.GaveUpAt.After(t0.Add(retryFor)) || !strings.Contains(c.LastError, "gave up after") {
				t.Fatalf("after 20 rounds: %+v; want given up within %v, saying why", c, retryFor)
			}
			// 20ms, 40ms, 80ms, 160ms: the fifth would come after 620ms.
			if c.Attempts != 5 {
				t.Errorf("%d attempts, want 5", c.Attempts)
			}
			before := failing.count()
			w.clock.Advance(time.Hour)
			if n := deliver(t, s); n != 0 || failing.count() != before {
				t.Errorf("a given-up callback was posted again")
			}
		})
	}
}

// TestDeliverClaims: of two processes delivering from one outbox at once,
// each callback is posted by one; a callback claimed by a process that
// died is posted by another once the claim's lease has lapsed.
func TestDeliverClaims(t *testing.T) {
	ctx := context.Background()
	rc := newReceiver(t, 200)
	w := newWorld(t)
	a := testSandbox(t, rc.srv.URL, &w, time.Minute)
	b := testSandbox(t, rc.srv.URL, &w, time.Minute)
	const n = 12
	for range n {
		if _, err := a.Decide(ctx, w.payment(t).ID, true); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for _, s := range []*Sandbox{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := s.Deliver(ctx, 2)
				if err != nil {
					t.Error(err)
				}
				if got == 0 || err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	for _, a := range rc.all() {
		seen[eventOf(t, a.body).ID]++
	}
	if len(seen) != n {
		t.Errorf("%d callbacks arrived, want %d", len(seen), n)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("callback %s posted %d times", id, k)
		}
	}

	// A process claims a callback and dies before posting it.
	p := w.payment(t)
	if _, err := a.Decide(ctx, p.ID, true); err != nil {
		t.Fatal(err)
	}
	claimed, err := booking.ClaimCallbacksStep(ctx, w.store, w.clock.Now, DefaultCallbackLease, 10)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v, %v", claimed, err)
	}
	before := rc.count()
	w.clock.Advance(DefaultCallbackLease - time.Millisecond)
	if got := deliver(t, b); got != 0 || rc.count() != before {
		t.Fatalf("posted during another process's claim")
	}
	w.clock.Advance(time.Millisecond)
	if got := deliver(t, b); got != 1 {
		t.Fatalf("after the lease: delivered %d, want 1", got)
	}
	if c := outbound(t, w, p); c.Attempts != 2 || c.DeliveredAt.IsZero() {
		t.Errorf("after the lease: %+v; want delivered on the second claim", c)
	}
}

func TestBackoffDelay(t *testing.T) {
	b := backoff{First: 500 * time.Millisecond, Max: 10 * time.Second}
	var got []time.Duration
	for n := 1; n <= 7; n++ {
		got = append(got, b.delay(n))
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("delays = %v, want %v", got, want)
		}
	}
	b.jitter = equalJitter
	for range 100 {
		if d := b.delay(3); d < time.Second || d > 2*time.Second {
			t.Fatalf("jittered delay(3) = %v, want within [1s, 2s]", d)
		}
	}
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestDeliverDoesNotFollowRedirects: a redirect answering the callback (an
// http PUBLIC_URL behind a load balancer that sends everything to https) is
// a failed attempt, retried and logged with where it pointed; following it
// would turn the POST into a GET without the body.
func TestDeliverDoesNotFollowRedirects(t *testing.T) {
	target := newReceiver(t, 200) // where the redirect points
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var attempts atomic.Int32
			redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				attempts.Add(1)
				http.Redirect(w, r, target.srv.URL+CallbackPath, status)
			}))
			t.Cleanup(redirecting.Close)
			w := newWorld(t)
			p := w.payment(t)
			s := testSandbox(t, redirecting.URL, &w, time.Minute)
			var logs testkit.SyncBuffer
			s.log = slog.New(slog.NewTextHandler(&logs, nil))
			if _, err := s.Decide(context.Background(), p.ID, true); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				deliver(t, s)
				w.clock.Set(outbound(t, w, p).NextAt)
			}
			if n := target.count(); n != 0 {
				t.Errorf("the redirect was followed: its target got %d requests", n)
			}
			if c := outbound(t, w, p); attempts.Load() != 2 || c.Attempts != 2 || !c.GaveUpAt.IsZero() {
				t.Errorf("%d attempts, callback %+v; want 2, retried", attempts.Load(), c)
			}
			if !strings.Contains(logs.String(), target.srv.URL+CallbackPath) {
				t.Errorf("the log doesn't name the redirect's Location:\n%s", logs.String())
			}
		})
	}
}
