package mail

import (
	"context"
	"log/slog"
)

// Log is the Sender for development without SMTP_URL: it writes each
// message to the log, so the booking link can be copied from there.
type Log struct {
	logger *slog.Logger
	from   string
}

var _ Sender = (*Log)(nil)

// NewLog returns a Sender that writes each message (to, subject and the
// plain-text body, with the booking link) to logger at Info, for
// development without SMTP_URL. It never fails.
func NewLog(logger *slog.Logger, from string) *Log {
	return &Log{logger: logger, from: from}
}

// Send logs m. A message Compose refuses is still logged, by its link,
// at Warn: there is nothing to retry.
func (l *Log) Send(ctx context.Context, m Message) error {
	c, err := Compose(m)
	if err != nil {
		l.logger.WarnContext(ctx, "mail not composed; not sent (no SMTP_URL)",
			"id", m.ID, "kind", string(m.Kind), "to", m.To, "link", m.BookingURL, "err", err)
		return nil
	}
	l.logger.InfoContext(ctx, "mail not sent (no SMTP_URL); it reads",
		"id", m.ID, "kind", string(m.Kind), "from", l.from, "to", m.To,
		"subject", c.Subject, "link", m.BookingURL, "text", c.Text)
	return nil
}
