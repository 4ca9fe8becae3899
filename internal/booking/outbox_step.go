package booking

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The outboxes' steps (SPEC §6 and §11), written once over OutboxTx. None
// calls Tx.Serialize: each step writes the records it decides on (a claim,
// an outcome, a new record's own id), so two steps deciding on the same
// record conflict in MongoDB as they take turns in SQLite.

// QueueMailIn adds m in the caller's step, unless a mail with its id is
// there already (a step run again, or a change told twice).
func QueueMailIn(tx OutboxTx, m Mail) error {
	_, err := tx.Mail(m.ID)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, ErrMailNotFound):
		return err
	}
	return tx.InsertMail(m)
}

// QueueMailStep adds m in a step of its own, unless a mail with its id is
// there already.
func QueueMailStep(ctx context.Context, st Transactor, clock func() time.Time, m Mail) error {
	return st.Atomically(ctx, clock, func(tx Tx) error { return QueueMailIn(tx, m) })
}

// Claim is m claimed at now until now+lease, by one more attempt.
func (m Mail) Claim(now time.Time, lease time.Duration) Mail {
	m.Attempts++
	m.ClaimedUntil = now.Add(lease)
	return m
}

// ClaimMailStep claims up to limit mails due at the step's instant, oldest
// first, until lease after it (Mail.Claim), and returns them as claimed.
// Of processes claiming at once, each mail goes to one: each reads the due
// mails and writes their claims, and the writes conflict.
func ClaimMailStep(ctx context.Context, st Transactor, clock func() time.Time, lease time.Duration, limit int) ([]Mail, error) {
	var claimed []Mail
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		claimed = claimed[:0] // a run again starts afresh
		due, err := tx.DueMail(tx.Now(), limit)
		if err != nil {
			return err
		}
		for _, m := range due {
			m = m.Claim(tx.Now(), lease)
			if err := tx.UpdateMail(m); err != nil {
				return err
			}
			claimed = append(claimed, m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// MailSentStep records that mail id was sent, at the step's instant. A
// mail recorded sent already keeps its time.
func MailSentStep(ctx context.Context, st Transactor, clock func() time.Time, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		m, err := tx.Mail(id)
		if err != nil || !m.SentAt.IsZero() {
			return err
		}
		m.SentAt, m.ClaimedUntil, m.LastError = tx.Now(), time.Time{}, ""
		return tx.UpdateMail(m)
	})
}

// MailFailedStep stores failed as Mail.Failed left it (due again later, or
// given up), unless the mail was sent meanwhile or claimed again (by
// another process, once this one's claim until claimedUntil had lapsed):
// sent stays sent, and another's live claim stays its own, so that two
// processes never both hold a live claim on one mail.
func MailFailedStep(ctx context.Context, st Transactor, clock func() time.Time, failed Mail, claimedUntil time.Time) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		m, err := tx.Mail(failed.ID)
		if err != nil || !m.SentAt.IsZero() || !m.ClaimedUntil.Equal(claimedUntil) {
			return err
		}
		m.NextAt, m.ClaimedUntil, m.GaveUpAt, m.LastError = failed.NextAt, failed.ClaimedUntil, failed.GaveUpAt, failed.LastError
		return tx.UpdateMail(m)
	})
}

// ErrCallbackNotFound is a payment without an outbound callback: nobody
// chose an outcome on its sandbox checkout page.
var ErrCallbackNotFound = &Error{Code: ENOTFOUND, Message: "There is no callback for this payment."}

// OutboundCallback is the sandbox's signed callback of a payment, in its
// outbox (SPEC §6): the outcome chosen on the payment's checkout page,
// recorded when it is chosen, and delivered afterwards, at least once, by
// whichever process claims it. A payment has one: the first choice stands.
// It is also what the sandbox answers a lookup of the payment with.
type OutboundCallback struct {
	PaymentID string
	EventID   string
	Type      EventType
	// Body is the event as it is posted: the same on every attempt, so
	// that the receiver drops repeats by its id. Each attempt signs it
	// afresh.
	Body      []byte
	CreatedAt time.Time
	// Attempts counts the claims; NextAt is when it may be claimed
	// (again); ClaimedUntil is when the claim of the process delivering
	// it lapses, and another may try.
	Attempts     int
	NextAt       time.Time
	ClaimedUntil time.Time
	DeliveredAt  time.Time
	GaveUpAt     time.Time
	LastError    string // why the last attempt failed, or why it was given up
}

// Due reports whether c may be claimed at now.
func (c OutboundCallback) Due(now time.Time) bool {
	return c.DeliveredAt.IsZero() && c.GaveUpAt.IsZero() && !c.NextAt.After(now) && !c.ClaimedUntil.After(now)
}

// Claim is c claimed at now until now+lease, by one more attempt.
func (c OutboundCallback) Claim(now time.Time, lease time.Duration) OutboundCallback {
	c.Attempts++
	c.ClaimedUntil = now.Add(lease)
	return c
}

// CallbackAttempt is how one attempt to deliver a callback ended.
type CallbackAttempt struct {
	// Err is why it failed; "" when it was delivered.
	Err string
	// Refused: the receiver answered so that no retry can change it (a
	// 4xx other than 408 and 429); the callback is given up at once.
	Refused bool
	// Wait is how long to wait before the next attempt after a failure.
	Wait time.Duration
}

// Attempted is c after attempt a ended at now: delivered; given up, when
// refused or when the next attempt would come later than retryFor after c
// was created; or due again after a.Wait.
func (c OutboundCallback) Attempted(a CallbackAttempt, now time.Time, retryFor time.Duration) OutboundCallback {
	c.ClaimedUntil = time.Time{}
	switch {
	case a.Err == "":
		c.DeliveredAt, c.LastError = now, ""
	case a.Refused:
		c.GaveUpAt, c.LastError = now, Truncate("refused: "+a.Err, 300)
	case now.Add(a.Wait).After(c.CreatedAt.Add(retryFor)):
		c.GaveUpAt = now
		c.LastError = Truncate(fmt.Sprintf("gave up after %d attempts in %v: %s", c.Attempts, retryFor, a.Err), 300)
	default:
		c.NextAt, c.LastError = now.Add(a.Wait), Truncate(a.Err, 300)
	}
	return c
}

// QueueCallbackStep records c, the outcome chosen on the sandbox checkout
// page of payment c.PaymentID, and its callback in the outbox, due at
// once; it returns the callback as stored. A payment whose outcome was
// chosen already keeps it (the first choice stands, as on a hosted
// checkout, which closes once paid or declined): c is not stored and the
// first is returned.
func QueueCallbackStep(ctx context.Context, st Transactor, clock func() time.Time, c OutboundCallback) (OutboundCallback, error) {
	var stored OutboundCallback
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		first, err := tx.OutboundCallback(c.PaymentID)
		switch {
		case err == nil:
			stored = first
			return nil
		case !errors.Is(err, ErrCallbackNotFound):
			return err
		}
		stored = c
		stored.CreatedAt, stored.NextAt = tx.Now(), tx.Now()
		stored.Attempts, stored.ClaimedUntil, stored.DeliveredAt, stored.GaveUpAt, stored.LastError = 0, time.Time{}, time.Time{}, time.Time{}, ""
		return tx.InsertOutboundCallback(stored)
	})
	return stored, err
}

// ClaimCallbacksStep claims up to limit callbacks due at the step's
// instant, oldest first, until lease after it, and returns them as
// claimed: of processes claiming at once, each callback goes to one.
func ClaimCallbacksStep(ctx context.Context, st Transactor, clock func() time.Time, lease time.Duration, limit int) ([]OutboundCallback, error) {
	var claimed []OutboundCallback
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		claimed = claimed[:0]
		due, err := tx.DueCallbacks(tx.Now(), limit)
		if err != nil {
			return err
		}
		for _, c := range due {
			c = c.Claim(tx.Now(), lease)
			if err := tx.UpdateOutboundCallback(c); err != nil {
				return err
			}
			claimed = append(claimed, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// CallbackAttemptedStep records how an attempt to deliver payment
// paymentID's callback, claimed until claimedUntil, ended
// (OutboundCallback.Attempted), and returns the callback as stored. A
// callback delivered or given up already stays so; a failure is not
// recorded once another process has claimed the callback since this
// claim lapsed (it is that process's attempt now), but a delivery always
// is.
func CallbackAttemptedStep(ctx context.Context, st Transactor, clock func() time.Time, paymentID string, claimedUntil time.Time, a CallbackAttempt, retryFor time.Duration) (OutboundCallback, error) {
	var stored OutboundCallback
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		c, err := tx.OutboundCallback(paymentID)
		if err != nil {
			return err
		}
		stored = c
		if !c.DeliveredAt.IsZero() || !c.GaveUpAt.IsZero() || (a.Err != "" && !c.ClaimedUntil.Equal(claimedUntil)) {
			return nil
		}
		stored = c.Attempted(a, tx.Now(), retryFor)
		return tx.UpdateOutboundCallback(stored)
	})
	return stored, err
}
