package booking

import "time"

// SignatureVerdict is what the check of a callback's signature said.
type SignatureVerdict string

const (
	SignatureValid   SignatureVerdict = "valid"
	SignatureInvalid SignatureVerdict = "invalid"
	// SignatureUnchecked: the callback was refused before its signature
	// could be checked (unreadable or oversized body).
	SignatureUnchecked SignatureVerdict = "unchecked"
)

// Callback outcomes besides the Effects of an applied event.
const (
	OutcomeRejected = "rejected" // refused with a 4xx: see Status and Reason
	OutcomeError    = "error"    // our fault (5xx): the provider retries
	// OutcomeAcknowledged: verified and answered 200, with no effect (an
	// event type we do not act on, or one naming no payment of ours when
	// the provider retries every other answer for days): see Reason.
	OutcomeAcknowledged = "acknowledged"
)

// CallbackRecord is one payment callback as received, whatever became of
// it, so that an admin can answer "I was charged but got no ticket" by
// reading the payment's records. Fields of a refused callback come from its
// unverified body and are claims, not facts.
type CallbackRecord struct {
	ID         string
	ReceivedAt time.Time
	Signature  SignatureVerdict
	EventID    string
	EventType  string
	PaymentID  string
	Status     int    // the HTTP status answered
	Outcome    string // an Effect, OutcomeRejected or OutcomeError
	Duplicate  bool   // the event id had taken effect before
	Reason     string
}

// CallbackQuery selects callback records: those naming one payment, or
// those naming a payment of one show. Records come newest first, so that
// a Limit keeps the latest.
type CallbackQuery struct {
	PaymentID string
	ShowID    string
	Limit     int // 0 means all
}

// Applied is r, a verified callback, once the store applied it with
// effect, or found it a repeat (duplicate), for the log: the reason says
// which.
func (r CallbackRecord) Applied(status int, effect Effect, duplicate bool, reason string) CallbackRecord {
	if duplicate {
		reason = "repeat of an event already applied; nothing changed now"
	}
	r.Status, r.Outcome, r.Duplicate, r.Reason = status, string(effect), duplicate, reason
	return r
}
