package main

import (
	"fmt"
	"io"
	"log/slog"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
	"boxoffice/internal/payment"
	"boxoffice/internal/web"
)

// paymentProvider is a provider and what stops it at shutdown.
type paymentProvider interface {
	payment.Provider
	io.Closer
}

// newPaymentProvider builds the provider PAYMENT_PROVIDER names. A new
// provider (Stripe, Razorpay) is a type in internal/payment and one case
// here; the web layer and the domain only see payment.Provider.
func newPaymentProvider(cfg config.Config, store booking.Store, logger *slog.Logger) (paymentProvider, error) {
	switch cfg.PaymentProvider {
	case "sandbox":
		return payment.NewSandbox(payment.SandboxOptions{
			PublicURL: cfg.PublicURL,
			Secret:    []byte(cfg.WebhookSecret),
			Payments:  store,
			Logger:    logger,
			CSRFToken: web.CSRFToken,
		})
	default:
		return nil, fmt.Errorf("PAYMENT_PROVIDER=%q: unknown payment provider; the only one is sandbox", cfg.PaymentProvider)
	}
}
