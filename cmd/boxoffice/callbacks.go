package main

import (
	"context"
	"log/slog"
	"time"

	"boxoffice/internal/payment"
)

// callbackEvery is how often each process looks for sandbox callbacks to
// deliver: a cheap read while nothing is due. A Pay or Decline in this
// process kicks it at once.
const callbackEvery = time.Second

// deliverCallbacks runs Sandbox.Deliver every callbackEvery, and at once
// when kicked, until stop. Every process runs it; the outbox's claims keep
// two from posting one callback at once. It returns the kick, which never
// blocks.
func deliverCallbacks(w *workers, sandbox *payment.Sandbox, logger *slog.Logger) (kick func()) {
	return w.every(callbackEvery, func(ctx context.Context) {
		for {
			n, err := sandbox.Deliver(ctx, callbackBatch)
			if err != nil && ctx.Err() == nil {
				logger.Warn("delivering sandbox callbacks", "delivered", n, "err", err)
			}
			if err != nil || n < callbackBatch || w.stopped() {
				return
			}
		}
	})
}

// callbackBatch bounds the callbacks one process claims at a time.
const callbackBatch = 10
