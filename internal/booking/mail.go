package booking

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode"
)

// ValidateEmail checks the address a moviegoer gives at Pay (and at Find
// my booking): one address, without a display name, with no control or
// text-direction character (RefusedRune), whose domain is a dotted name
// (DottedDomain), never an address literal such as [127.0.0.1]. It
// returns the address trimmed, with its domain lower-cased.
func ValidateEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	bad := InvalidFields{{Field: "email", Message: "Please enter one email address, like name@example.com."}}
	if msg := refusedText("The email address", s); msg != "" {
		return "", InvalidFields{{Field: "email", Message: msg}}
	}
	if s == "" || len(s) > 254 || strings.ContainsAny(s, " \t\r\n,;<>\"") {
		return "", bad
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", bad
	}
	at := strings.LastIndexByte(s, '@')
	local, domain := s[:at], strings.ToLower(s[at+1:])
	if local == "" || !DottedDomain(domain) {
		return "", bad
	}
	return local + "@" + domain, nil
}

// DottedDomain reports whether domain is a name of two or more labels
// separated by dots, each of letters (any script), digits and inner
// hyphens, the last not all digits: mail goes to a name, never to an
// address literal ([127.0.0.1], or 127.0.0.1 bare).
func DottedDomain(domain string) bool {
	labels := strings.Split(domain, ".")
	if len(labels) < 2 || len(domain) > 253 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return false
		}
		for _, r := range l {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	return strings.TrimFunc(last, unicode.IsDigit) != ""
}

// NewBookingKey returns the key of a booking link: 128 random bits.
func NewBookingKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// KeyOpens reports whether key opens booking b, in constant time. A booking
// without a key opens for none.
func (b Booking) KeyOpens(key string) bool {
	return b.Key != "" && subtle.ConstantTimeCompare([]byte(b.Key), []byte(key)) == 1
}

// MailKind is why a mail is sent.
type MailKind string

const (
	MailConfirmed MailKind = "confirmed"  // the ticket
	MailRefundDue MailKind = "refund_due" // paid, but no ticket: a refund is coming
	MailRefunded  MailKind = "refunded"   // the money went back
	MailCancelled MailKind = "cancelled"  // the show was cancelled: a refund is coming
	MailLink      MailKind = "link"       // "find my booking": the link again
)

// Mail is a message in the outbox: written in the same store step as the
// change it tells of, and sent afterwards, at least once, by whichever
// process claims it (see ClaimMailStep). What it says is composed when it
// is sent, from the booking as it is then.
type Mail struct {
	ID        string
	Kind      MailKind
	BookingID string
	To        string
	CreatedAt time.Time
	// Attempts counts the claims of the mail; NextAt is when it may be
	// claimed (again); ClaimedUntil is when the claim of the process
	// sending it lapses, and another may try.
	Attempts     int
	NextAt       time.Time
	ClaimedUntil time.Time
	SentAt       time.Time
	GaveUpAt     time.Time // after MailAttempts failures
	LastError    string
}

// Outbox policy.
const (
	// DefaultMailLease is how long a claimed mail is left to its process
	// (MAIL_LEASE). A process that dies while sending leaves it to be
	// claimed again when the lease lapses, so a mail may be sent twice,
	// never lost; never by two processes at once, since SendMail stops
	// sending when the lease ends.
	DefaultMailLease = 2 * time.Minute
	// MailAttempts is how often a mail is tried before it is given up: the
	// waits between tries double from MailRetryFirst to MailRetryMax, so
	// the last try is about a day after the first.
	MailAttempts   = 30
	MailRetryFirst = 30 * time.Second
	MailRetryMax   = time.Hour
)

// MailFor is the mail that the change of a booking from old to nb sends, if
// any: the ticket when it is confirmed, the news when it is due a refund
// (because its show was cancelled, or otherwise) or refunded. A booking
// without an address gets none; a refund that failed and is due again
// sends nothing new.
func MailFor(old, nb Booking, now time.Time) (Mail, bool) {
	if nb.Email == "" || old.State == nb.State {
		return Mail{}, false
	}
	var kind MailKind
	switch {
	case nb.State == BookingConfirmed:
		kind = MailConfirmed
	case nb.State == BookingRefundDue && old.State == BookingRefunded:
		return Mail{}, false
	case nb.State == BookingRefundDue && nb.Reason == ReasonShowCancelled:
		kind = MailCancelled
	case nb.State == BookingRefundDue:
		kind = MailRefundDue
	case nb.State == BookingRefunded:
		kind = MailRefunded
	default:
		return Mail{}, false
	}
	// One id per booking and kind: a store step run twice writes it once.
	return Mail{ID: nb.ID + "." + string(kind), Kind: kind, BookingID: nb.ID, To: nb.Email, CreatedAt: now, NextAt: now}, true
}

// LinkMail is the mail that sends b's link to its address again.
func LinkMail(b Booking, now time.Time) Mail {
	return Mail{ID: NewID(), Kind: MailLink, BookingID: b.ID, To: b.Email, CreatedAt: now, NextAt: now}
}

// Failed is m after a try that failed at now with reason: due again after a
// wait that doubles with each attempt, or given up after MailAttempts.
func (m Mail) Failed(now time.Time, reason string) Mail {
	m.LastError, m.ClaimedUntil = Truncate(reason, 300), time.Time{}
	if m.Attempts >= MailAttempts {
		m.GaveUpAt = now
		return m
	}
	wait := MailRetryFirst
	for i := 1; i < m.Attempts && wait < MailRetryMax; i++ {
		wait *= 2
	}
	m.NextAt = now.Add(min(wait, MailRetryMax))
	return m
}

// Due reports whether m may be claimed at now.
func (m Mail) Due(now time.Time) bool {
	return m.SentAt.IsZero() && m.GaveUpAt.IsZero() && !m.NextAt.After(now) && !m.ClaimedUntil.After(now)
}

// BookingByKey returns booking id when key opens it (the booking link);
// otherwise ErrBookingNotFound, as for an unknown booking.
func (s *Service) BookingByKey(ctx context.Context, id, key string) (Booking, error) {
	b, err := s.store.Booking(ctx, id)
	if err != nil {
		return Booking{}, err
	}
	if !b.KeyOpens(key) {
		return Booking{}, ErrBookingNotFound
	}
	return b, nil
}

// FindBooking queues the link of the booking with ticket code to its
// address, when that address is email. It tells nobody whether it did:
// the caller answers the same either way.
func (s *Service) FindBooking(ctx context.Context, email, code string) error {
	addr, err := ValidateEmail(email)
	code = NormalizeTicketCode(code)
	if err != nil || code == "" {
		return nil
	}
	b, err := s.store.BookingByTicketCode(ctx, code)
	switch {
	case errors.Is(err, ErrBookingNotFound):
		return nil
	case err != nil:
		return err
	}
	if b.Key == "" || !strings.EqualFold(b.Email, addr) {
		return nil
	}
	return QueueMailStep(ctx, s.store, s.clock.Now, LinkMail(b, s.clock.Now()))
}

// MailSender sends one mail about booking b of show sh. An error means try
// again later.
type MailSender func(ctx context.Context, m Mail, b Booking, sh Show) error

// SendMail sends up to limit due mails with send, each claimed first so
// that no other process sends it meanwhile, and records each outcome. It
// returns how many were sent.
func (s *Service) SendMail(ctx context.Context, limit int, send MailSender) (int, error) {
	now := s.clock.Now()
	if due, err := s.store.MailDue(ctx, now); err != nil || !due {
		return 0, err
	}
	// Sending ends with the claim, a little before it by the wall clock,
	// so that no mail is sent after another process may have claimed it.
	ctx, cancel := context.WithTimeout(ctx, s.mailLease-s.mailLease/10)
	defer cancel()
	list, err := ClaimMailStep(ctx, s.store, s.clock.Now, s.mailLease, limit)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, m := range list {
		err := s.sendOne(ctx, m, send)
		if err == nil {
			if err := MailSentStep(ctx, s.store, s.clock.Now, m.ID); err != nil {
				return sent, err
			}
			sent++
			continue
		}
		if ctx.Err() != nil {
			return sent, ctx.Err() // the claim lapses; another try later
		}
		if err := MailFailedStep(ctx, s.store, s.clock.Now, m.Failed(s.clock.Now(), err.Error()), m.ClaimedUntil); err != nil {
			return sent, err
		}
	}
	return sent, nil
}

func (s *Service) sendOne(ctx context.Context, m Mail, send MailSender) error {
	b, err := s.store.Booking(ctx, m.BookingID)
	if err != nil {
		return fmt.Errorf("booking %s: %w", m.BookingID, err)
	}
	sh, err := s.store.Show(ctx, b.ShowID)
	if err != nil {
		return fmt.Errorf("show %s: %w", b.ShowID, err)
	}
	// A booking an older process stored without a language, during a
	// rolling deploy, is mailed in DEFAULT_LANG, as the next start fills it.
	b.Lang = s.Lang(b.Lang)
	return send(ctx, m, b, sh)
}
