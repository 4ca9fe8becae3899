package main

import (
	"context"
	"log/slog"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
	"boxoffice/internal/mail"
	"boxoffice/internal/web"
)

// mailEvery is how often each process looks for mail to send: a cheap read
// while nothing is due.
const mailEvery = 2 * time.Second

// mailBatch bounds the mails one process claims at a time, so that a slow
// SMTP server holds few claims while others could send.
const mailBatch = 10

// newMailer is SMTP_URL's sender, or one that writes each mail to the log.
func newMailer(cfg config.Config, logger *slog.Logger) (mail.Sender, error) {
	if cfg.SMTPURL == "" {
		logger.Warn("SMTP_URL is not set: mail is written to the log, not sent")
		return mail.NewLog(logger, cfg.MailFrom), nil
	}
	return mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
}

// sendMail runs Service.SendMail every mailEvery, and at once when kicked,
// until ctx is done. Every process runs it; the outbox's claims keep two
// from sending one mail.
func sendMail(w *workers, svc *booking.Service, sender mail.Sender, publicURL string, logger *slog.Logger) (kick func()) {
	send := func(ctx context.Context, m booking.Mail, b booking.Booking, sh booking.Show) error {
		err := sender.Send(ctx, mail.About(m, b, sh, web.BookingLink(publicURL, b)))
		if err != nil {
			logger.Warn("mail not sent; it will be tried again", "mail", m.ID, "kind", m.Kind, "attempt", m.Attempts, "err", err)
		}
		return err
	}
	return w.every(mailEvery, func(ctx context.Context) {
		for {
			n, err := svc.SendMail(ctx, mailBatch, send)
			if err != nil && ctx.Err() == nil {
				logger.Warn("sending mail", "sent", n, "err", err)
			}
			if err != nil || n < mailBatch || w.stopped() {
				return
			}
		}
	})
}
