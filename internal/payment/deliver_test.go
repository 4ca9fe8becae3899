package payment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxoffice/internal/booking"
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

// testSandbox returns a sandbox calling back to publicURL, on the fake
// clock t0, with fast deterministic backoff.
func testSandbox(t testing.TB, publicURL string, lookup PaymentLookup, retryFor time.Duration) *Sandbox {
	t.Helper()
	if lookup == nil {
		lookup = newWorld(t).store
	}
	s, err := NewSandbox(SandboxOptions{
		PublicURL: publicURL,
		Secret:    secret,
		Payments:  lookup,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock:     func() time.Time { return t0 },
		RetryFor:  retryFor,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.backoff = backoff{First: 20 * time.Millisecond, Max: time.Second}
	t.Cleanup(func() { s.Close() })
	return s
}

// testPayment is what the deliver tests send; no store needs to know it.
var testPayment = booking.Payment{ID: "pay1", HoldID: "hold1", BookingID: "bk1", Owner: "visitor1",
	Amount: 45000, Currency: "INR", State: booking.PaymentPending, CreatedAt: t0}

func TestDeliverRetriesWithBackoff(t *testing.T) {
	tests := []struct {
		name   string
		script []int
	}{
		{"500 then 503", []int{500, 503, 200}},
		{"500 then dropped connection", []int{500, 0, 200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := newReceiver(t, tt.script...)
			s := testSandbox(t, rc.srv.URL, nil, 10*time.Second)
			ev := NewEvent(testPayment, booking.EventPaymentSucceeded, t0)
			body, _ := json.Marshal(ev)

			if err := s.deliver(context.Background(), ev, body); err != nil {
				t.Fatalf("deliver: %v", err)
			}
			got := rc.all()
			if len(got) != 3 {
				t.Fatalf("receiver saw %d attempts, want 3", len(got))
			}
			// Backoff without jitter: at least 20ms, then at least 40ms.
			for i, min := range []time.Duration{20 * time.Millisecond, 40 * time.Millisecond} {
				if gap := got[i+1].at.Sub(got[i].at); gap < min {
					t.Errorf("gap before attempt %d = %v, want at least %v", i+2, gap, min)
				}
			}
			for i, a := range got {
				if !bytes.Equal(a.body, body) {
					t.Errorf("attempt %d body = %s, want %s", i+1, a.body, body)
				}
				if err := Verify([][]byte{secret}, a.signature, a.body, t0, DefaultTolerance); err != nil {
					t.Errorf("attempt %d signature: %v", i+1, err)
				}
			}
			n, err := s.VerifyCallback(http.Header{SignatureHeader: {got[2].signature}}, got[2].body, t0)
			if err != nil {
				t.Fatalf("VerifyCallback of the delivered callback: %v", err)
			}
			if pe := *n.Payment; pe != ev.PaymentEvent() {
				t.Errorf("delivered event = %+v, want %+v", pe, ev.PaymentEvent())
			}
		})
	}
}

func TestDeliverGivesUpAfterRetryFor(t *testing.T) {
	failing := newReceiver(t, 500)
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + dead.Addr().String()
	dead.Close() // connection refused from now on

	for name, url := range map[string]string{"always 500": failing.srv.URL, "connection refused": deadURL} {
		t.Run(name, func(t *testing.T) {
			const retryFor = 200 * time.Millisecond
			s := testSandbox(t, url, nil, retryFor)
			s.backoff.First = 10 * time.Millisecond
			ev := NewEvent(testPayment, booking.EventPaymentFailed, t0)
			body, _ := json.Marshal(ev)
			before := failing.count()

			start := time.Now()
			err := s.deliver(context.Background(), ev, body)
			elapsed := time.Since(start)
			if err == nil {
				t.Fatal("deliver succeeded against a receiver that never accepts")
			}
			if elapsed < retryFor || elapsed > retryFor+2*time.Second {
				t.Errorf("gave up after %v, want about %v", elapsed, retryFor)
			}
			if url != failing.srv.URL {
				return
			}
			attempts := failing.count() - before
			if attempts < 3 {
				t.Errorf("%d attempts in %v, want several", attempts, retryFor)
			}
			time.Sleep(100 * time.Millisecond)
			if late := failing.count() - before; late != attempts {
				t.Errorf("%d attempts arrived after giving up", late-attempts)
			}
		})
	}
}

func TestCloseStopsRetries(t *testing.T) {
	rc := newReceiver(t, 500)
	w := newWorld(t)
	p := w.payment(t)
	s := testSandbox(t, rc.srv.URL, w.store, time.Hour)
	s.backoff.First = time.Hour // the first retry would come only after an hour

	if _, err := s.Decide(context.Background(), p.ID, true); err != nil {
		t.Fatalf("Decide: %v", err)
	}
	waitFor(t, func() bool { return rc.count() == 1 })

	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not stop a delivery waiting to retry")
	}
	if _, err := s.Decide(context.Background(), p.ID, true); !errors.Is(err, ErrBusy) {
		t.Errorf("Decide after Close: %v, want ErrBusy", err)
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
			s := testSandbox(t, redirecting.URL, nil, 150*time.Millisecond)
			s.backoff.First = 10 * time.Millisecond
			var logs bytes.Buffer
			s.log = slog.New(slog.NewTextHandler(&logs, nil))
			ev := NewEvent(testPayment, booking.EventPaymentSucceeded, t0)
			body, _ := json.Marshal(ev)

			if err := s.deliver(context.Background(), ev, body); err == nil {
				t.Fatal("deliver succeeded against a receiver that only redirects")
			}
			if n := target.count(); n != 0 {
				t.Errorf("the redirect was followed: its target got %d requests", n)
			}
			if n := attempts.Load(); n < 2 {
				t.Errorf("%d attempts, want retries", n)
			}
			if !strings.Contains(logs.String(), target.srv.URL+CallbackPath) {
				t.Errorf("the log doesn't name the redirect's Location:\n%s", logs.String())
			}
		})
	}
}
