package payment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

// backoff is the wait between callback attempts: First, doubling up to Max,
// each drawn from [d/2, d] so that many senders failing together do not
// retry in lockstep.
type backoff struct {
	First, Max time.Duration
	jitter     func(time.Duration) time.Duration
}

var defaultBackoff = backoff{First: 500 * time.Millisecond, Max: 10 * time.Second, jitter: equalJitter}

func equalJitter(d time.Duration) time.Duration {
	half := d / 2
	return half + rand.N(half+1)
}

// delay is the wait after failed attempt n (1-based).
func (b backoff) delay(n int) time.Duration {
	d := b.First
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	if b.jitter != nil {
		d = b.jitter(d)
	}
	return d
}

var errSandboxClosed = errors.New("payment: sandbox: closed")
var errSandboxBusy = errors.New("payment: sandbox: too many callbacks in flight")

// send delivers ev in the background, bounded by RetryFor and by Close.
func (s *Sandbox) send(ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("payment: sandbox: encode event: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errSandboxClosed
	}
	select {
	case s.slots <- struct{}{}:
	default:
		return errSandboxBusy
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() { <-s.slots }()
		_ = s.deliver(s.ctx, ev, body) // deliver logs the outcome
	}()
	return nil
}

// deliver posts body to the callback URL until it is answered 2xx, retrying
// failures and other statuses with backoff until RetryFor has passed or ctx
// is done. Every attempt is signed afresh, as real providers do, so that a
// late retry is not refused as stale; the body, and so the event id, stays
// the same, which lets the receiver drop repeats.
func (s *Sandbox) deliver(ctx context.Context, ev Event, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, s.retryFor)
	defer cancel()
	target := s.publicURL + CallbackPath
	log := s.log.With("event_id", ev.ID, "payment_id", ev.Data.PaymentID, "type", string(ev.Type))
	for attempt := 1; ; attempt++ {
		status, err := s.post(ctx, target, body)
		if err == nil && status/100 == 2 {
			log.Info("sandbox: callback delivered", "attempt", attempt, "status", status)
			return nil
		}
		if err == nil {
			err = fmt.Errorf("answered %d", status)
		}
		wait := s.backoff.delay(attempt)
		log.Warn("sandbox: callback failed", "attempt", attempt, "err", err, "retry_in", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			log.Error("sandbox: callback given up", "attempts", attempt, "err", err)
			return fmt.Errorf("payment: sandbox: callback %s: gave up after %d attempts: %w", ev.ID, attempt, err)
		case <-t.C:
		}
	}
}

// noRedirects is the callback client's CheckRedirect: a redirect is an
// answer, and a failed one. Followed, a 301 or 302 would turn the POST into
// a GET without the body (a PUBLIC_URL of http behind a load balancer that
// redirects to https), which the receiver refuses on every retry.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// post makes one attempt and returns the status. A redirect is an error that
// names where it pointed, so that the log says how to fix PUBLIC_URL.
func (s *Sandbox) post(ctx context.Context, target string, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "boxoffice-sandbox/1")
	req.Header.Set(SignatureHeader, Sign(s.secret, body, s.now()))
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode/100 == 3 {
		return resp.StatusCode, fmt.Errorf("answered %d, a redirect to %q, which is not followed: set PUBLIC_URL to the address callbacks reach directly",
			resp.StatusCode, resp.Header.Get("Location"))
	}
	return resp.StatusCode, nil
}
