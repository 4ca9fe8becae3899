package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
	"boxoffice/internal/payment"
)

// paymentProvider is a provider and what stops it at shutdown.
type paymentProvider interface {
	payment.Provider
	io.Closer
}

// newPaymentProvider builds the provider PAYMENT_PROVIDER names. A new
// provider (Razorpay) is a type in internal/payment and one case here; the
// web layer and the domain only see payment.Provider and booking.Payments.
func newPaymentProvider(cfg config.Config, store booking.Store, logger *slog.Logger) (paymentProvider, error) {
	switch cfg.PaymentProvider {
	case config.ProviderSandbox:
		return payment.NewSandbox(payment.SandboxOptions{
			PublicURL: cfg.PublicURL,
			Secret:    []byte(cfg.WebhookSecret),
			Payments:  store,
			Logger:    logger,
		})
	case config.ProviderStripe:
		return payment.NewStripe(payment.StripeOptions{
			SecretKey:      cfg.Stripe.SecretKey,
			WebhookSecret:  cfg.Stripe.WebhookSecret,
			APIBase:        cfg.Stripe.APIBase,
			PaymentMethods: cfg.Stripe.PaymentMethods,
			Logger:         logger,
		})
	default:
		return nil, fmt.Errorf("PAYMENT_PROVIDER=%q: unknown payment provider; use sandbox or stripe", cfg.PaymentProvider)
	}
}

// checkoutOrigins are the origins a provider's checkout lives at, which
// Pay's form post is redirected to (the CSP's form-action).
func checkoutOrigins(name string) []string {
	if name == config.ProviderStripe {
		return []string{payment.StripeCheckoutOrigin}
	}
	return nil
}

// checkoutSweepEvery is how often each process closes the provider's
// checkouts of holds that ended (replaced, lapsed and retaken) without a
// Back in this process. A Back closes its own at once.
const checkoutSweepEvery = 30 * time.Second

// closeEndedCheckouts runs Service.CloseEndedCheckouts every
// checkoutSweepEvery, and at once when kicked, until ctx is done. Every
// process runs it; a checkout closed twice is no harm. It returns the kick,
// which never blocks.
func closeEndedCheckouts(w *workers, svc *booking.Service, logger *slog.Logger) (kick func()) {
	return w.every(checkoutSweepEvery, func(ctx context.Context) {
		runCtx, cancel := context.WithTimeout(ctx, checkoutSweepEvery)
		defer cancel()
		n, err := svc.CloseEndedCheckouts(runCtx)
		if err != nil && ctx.Err() == nil {
			logger.Warn("closing checkouts of ended holds", "closed", n, "err", err)
		} else if n > 0 {
			logger.Info("closed checkouts of ended holds", "closed", n)
		}
	})
}
