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
// those naming a payment of one show. Records come oldest first.
type CallbackQuery struct {
	PaymentID string
	ShowID    string
	Limit     int // 0 means all
}

// RecordFor is the record of an event the store applied: its effect, or
// that it was a repeat.
func RecordFor(ev PaymentEvent, st Settlement, status int, at time.Time) CallbackRecord {
	reason := st.Reason
	if st.Duplicate {
		reason = "repeat of an event already applied; nothing changed now"
	}
	return CallbackRecord{
		ID: NewID(), ReceivedAt: at, Signature: SignatureValid,
		EventID: ev.ID, EventType: string(ev.Type), PaymentID: ev.PaymentID,
		Status: status, Outcome: string(st.Effect), Duplicate: st.Duplicate, Reason: reason,
	}
}
