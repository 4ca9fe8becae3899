package payment

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"boxoffice/internal/booking"
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

// Deliver posts the callbacks due in the outbox, claiming each first (for
// the sandbox's lease) so that no other process posts it meanwhile, and
// records how each attempt ended (booking.CallbackAttemptedStep): a 2xx
// delivers it; a 4xx other than 408 and 429 gives it up at once, as no
// retry can change it; anything else (another status, a redirect, a
// network failure) is tried again after a backoff, until RetryFor after
// it was chosen. Every attempt is signed afresh, as real providers do, so
// that a late retry is not refused as stale; the body, and so the event
// id, stays the same, which lets the receiver drop repeats. It returns how
// many it delivered, and claims at most limit (0 means a batch of 10).
// Every process runs it (cmd/boxoffice's workers), after each Decide and
// every second or so.
func (s *Sandbox) Deliver(ctx context.Context, limit int) (int, error) {
	if limit <= 0 {
		limit = callbackBatch
	}
	if due, err := s.store.CallbacksDue(ctx, s.now()); err != nil || !due {
		return 0, err
	}
	// Attempts end with the claim, a little before it by the wall clock,
	// so that none is made after another process may have claimed it.
	ctx, cancel := context.WithTimeout(ctx, s.lease-s.lease/10)
	defer cancel()
	list, err := booking.ClaimCallbacksStep(ctx, s.store, s.now, s.lease, limit)
	if err != nil {
		return 0, err
	}
	delivered := 0
	for _, c := range list {
		a := s.attempt(ctx, c)
		if ctx.Err() != nil {
			return delivered, ctx.Err() // the claim lapses; another try later
		}
		rec, err := booking.CallbackAttemptedStep(ctx, s.store, s.now, c.PaymentID, c.ClaimedUntil, a, s.retryFor)
		if err != nil {
			return delivered, err
		}
		log := s.log.With("event_id", c.EventID, "payment_id", c.PaymentID, "type", string(c.Type), "attempt", c.Attempts)
		switch {
		case a.Err == "":
			delivered++
			log.Info("sandbox: callback delivered")
		case !rec.GaveUpAt.IsZero():
			log.Error("sandbox: callback given up", "err", rec.LastError)
		default:
			log.Warn("sandbox: callback failed", "err", a.Err, "retry_at", rec.NextAt)
		}
	}
	return delivered, nil
}

// attempt posts c's callback once and says how it ended.
func (s *Sandbox) attempt(ctx context.Context, c booking.OutboundCallback) booking.CallbackAttempt {
	status, err := s.post(ctx, s.publicURL+CallbackPath, c.Body)
	switch {
	case err == nil && status/100 == 2:
		return booking.CallbackAttempt{}
	case err == nil:
		err = fmt.Errorf("answered %d", status)
	}
	return booking.CallbackAttempt{Err: err.Error(), Refused: refused(status), Wait: s.backoff.delay(c.Attempts)}
}

// refused reports whether a callback answered status is given up at once:
// a 4xx, except 408 (Request Timeout) and 429 (Too Many Requests), which
// say to try again later. The receiver refuses the callback itself (a bad
// signature, an unknown payment, a mismatch), and the same bytes will be
// refused again.
func refused(status int) bool {
	return status/100 == 4 && status != http.StatusRequestTimeout && status != http.StatusTooManyRequests
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
