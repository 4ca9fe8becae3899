package booking

import "time"

// OutboxTx is what the outboxes' steps (mail, SPEC §11, and the sandbox's
// callbacks, SPEC §6) read and write in a transaction. Both outboxes are
// sent at least once by whichever process claims a record: a claim is a
// write, so two processes claiming at once conflict (SQLite: one writer;
// MongoDB: a write conflict on the claimed documents) and each record goes
// to one of them.
type OutboxTx interface {
	// Mail is one mail; ErrMailNotFound when there is none with id.
	Mail(id string) (Mail, error)
	// DueMail lists up to limit mails that Mail.Due allows at now, by
	// NextAt then id.
	DueMail(now time.Time, limit int) ([]Mail, error)
	// InsertMail stores a new mail, whose id is not there.
	InsertMail(m Mail) error
	// UpdateMail stores m's sending state (Attempts, NextAt,
	// ClaimedUntil, SentAt, GaveUpAt, LastError) on the mail m.ID.
	UpdateMail(m Mail) error

	// OutboundCallback is the sandbox's callback of a payment: the
	// outcome chosen on its checkout page; ErrCallbackNotFound when none
	// was chosen.
	OutboundCallback(paymentID string) (OutboundCallback, error)
	// DueCallbacks lists up to limit callbacks that OutboundCallback.Due
	// allows at now, by NextAt then payment id.
	DueCallbacks(now time.Time, limit int) ([]OutboundCallback, error)
	// InsertOutboundCallback stores a new callback, whose payment has
	// none.
	InsertOutboundCallback(c OutboundCallback) error
	// UpdateOutboundCallback stores c's delivery state (Attempts, NextAt,
	// ClaimedUntil, DeliveredAt, GaveUpAt, LastError) on the callback of
	// c.PaymentID.
	UpdateOutboundCallback(c OutboundCallback) error
}
