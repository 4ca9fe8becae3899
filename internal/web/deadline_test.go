package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// stuckStore is the SQLite store whose show reads and steps hang, while
// stuck is set, until their context ends: a MongoDB election, a server
// selection, a file another process keeps locked.
type stuckStore struct {
	*sqlite.Store
	stuck     atomic.Bool
	showSeats atomic.Int64 // seat map reads
}

func (s *stuckStore) wait(ctx context.Context) error {
	if !s.stuck.Load() {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

func (s *stuckStore) Show(ctx context.Context, id string) (booking.Show, error) {
	if err := s.wait(ctx); err != nil {
		return booking.Show{}, err
	}
	return s.Store.Show(ctx, id)
}

func (s *stuckStore) ShowSeats(ctx context.Context, showID, owner string) (booking.ShowSeats, error) {
	s.showSeats.Add(1)
	if err := s.wait(ctx); err != nil {
		return booking.ShowSeats{}, err
	}
	return s.Store.ShowSeats(ctx, showID, owner)
}

// Atomically hangs every step, a settlement's among them.
func (s *stuckStore) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.Store.Atomically(ctx, clock, step)
}

// newStuckApp is newApp on a stuckStore, with a short RequestTimeout.
func newStuckApp(t *testing.T, timeout time.Duration) (*app, *stuckStore) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	show, seats := testShow()
	if err := booking.CreateShowStep(context.Background(), store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	stuck := &stuckStore{Store: store}
	clock := booking.NewManualClock(testStart)
	svc := booking.NewService(stuck, clock, booking.Policy{HoldTTL: 15 * time.Minute, MaxSeats: 4})
	srv := httptest.NewUnstartedServer(nil)
	publicURL := "http://" + srv.Listener.Addr().String()
	sandbox, err := payment.NewSandbox(payment.SandboxOptions{
		PublicURL: publicURL, Secret: []byte(testSecret), Payments: store,
		Logger: discardLogger(), Clock: clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sandbox.Close() })
	deliverCallbacks(t, sandbox)
	srv.Config.Handler = web.New(svc, web.Options{
		PublicURL: publicURL, Sessions: store.Sessions().WithClock(clock.Now), Location: time.UTC,
		Logger: discardLogger(), Payments: sandbox, RequestTimeout: timeout,
	}).Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	return &app{t: t, srv: srv, store: store, svc: svc, clock: clock, sandbox: sandbox}, stuck
}

// doWithin sends req and fails the test if no answer comes within d.
func doWithin(t *testing.T, req *http.Request, d time.Duration) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(req.Context(), d)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("%s %s: no answer within %v: %v", req.Method, req.URL.Path, d, err)
	}
	defer res.Body.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, res.Body); err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return res, b.String()
}

// A request whose database work hangs ends at the request deadline with
// 503 and Retry-After: the friendly page for people, the fragment for
// htmx, JSON for the payment callback. Never a hang.
func TestRequestDeadline(t *testing.T) {
	const timeout = 300 * time.Millisecond
	a, stuck := newStuckApp(t, timeout)
	stuck.stuck.Store(true)

	t.Run("page", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/shows/"+testShowID, nil)
		start := time.Now()
		res, body := doWithin(t, req, 5*time.Second)
		if took := time.Since(start); took < timeout {
			t.Errorf("answered after %v, before the deadline of %v", took, timeout)
		}
		if res.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want 503; body:\n%s", res.StatusCode, body)
		}
		if res.Header.Get("Retry-After") == "" || res.Header.Get("X-Request-Id") == "" {
			t.Errorf("503 headers: Retry-After %q, X-Request-Id %q", res.Header.Get("Retry-After"), res.Header.Get("X-Request-Id"))
		}
		if !strings.Contains(body, "We're busy right now") && !strings.Contains(body, "We&#39;re busy right now") {
			t.Errorf("503 page is not the friendly error page:\n%s", body)
		}
	})
	t.Run("htmx fragment", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/shows/"+testShowID+"/seats", nil)
		req.Header.Set("HX-Request", "true")
		res, body := doWithin(t, req, 5*time.Second)
		if res.StatusCode != http.StatusServiceUnavailable || strings.Contains(body, "<html") {
			t.Errorf("status %d, want 503 with a fragment; body:\n%s", res.StatusCode, body)
		}
	})
	t.Run("callback", func(t *testing.T) {
		p := booking.Payment{ID: "pay1", HoldID: "hold1", Amount: 18000, Currency: "INR"}
		body, _ := json.Marshal(payment.NewEvent(p, booking.EventPaymentSucceeded, testStart))
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+payment.CallbackPath, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(payment.SignatureHeader, payment.Sign([]byte(testSecret), body, testStart))
		res, got := doWithin(t, req, 5*time.Second)
		var answer struct{ Error string }
		if res.StatusCode != http.StatusServiceUnavailable || json.Unmarshal([]byte(got), &answer) != nil || answer.Error == "" {
			t.Errorf("status %d, body %s; want 503 with a JSON error", res.StatusCode, got)
		}
		if res.Header.Get("Retry-After") == "" {
			t.Error("503 without Retry-After")
		}
	})
	t.Run("static files and health are not held up", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/healthz", nil)
		if res, body := doWithin(t, req, 5*time.Second); res.StatusCode != http.StatusOK {
			t.Errorf("/healthz: %d %s", res.StatusCode, body)
		}
	})

	stuck.stuck.Store(false)
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/shows/"+testShowID, nil)
	if res, body := doWithin(t, req, 5*time.Second); res.StatusCode != http.StatusOK {
		t.Errorf("after the database recovered: %d %s", res.StatusCode, body)
	}
}

// A client that gives up mid-request is counted as 499 in the metrics, not
// as the 200 nobody was sent.
func TestMetricsCountClientGoneAs499(t *testing.T) {
	a, stuck := newStuckApp(t, 10*time.Second)
	stuck.stuck.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.srv.URL+"/shows/"+testShowID, nil)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("the request was answered (%d) although the store hangs", res.StatusCode)
	} else if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request: %v", err)
	}
	stuck.stuck.Store(false)

	want := `boxoffice_http_requests_total{code="499",method="GET",route="/shows/:showID"} 1`
	deadline := time.Now().Add(5 * time.Second)
	for {
		metrics := a.client().get("/metrics").body
		if strings.Contains(metrics, want) {
			return
		}
		if time.Now().After(deadline) {
			var lines []string
			for _, l := range strings.Split(metrics, "\n") {
				if strings.HasPrefix(l, "boxoffice_http_requests_total") {
					lines = append(lines, l)
				}
			}
			t.Fatalf("metrics lack %s; they have:\n%s", want, strings.Join(lines, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
