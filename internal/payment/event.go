package payment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"boxoffice/internal/booking"
)

// Event is a callback body as it travels (SPEC §6):
//
//	{"id":"evt_…","type":"payment.succeeded","created":1767225600,
//	 "data":{"payment_id":"…","hold_id":"…","amount":45000,"currency":"INR"}}
//
// Field order is fixed by the struct, so the same event always encodes to
// the same bytes.
type Event struct {
	ID      string            `json:"id"`
	Type    booking.EventType `json:"type"`
	Created int64             `json:"created"` // unix seconds
	Data    EventData         `json:"data"`
}

// EventData is what the event is about.
type EventData struct {
	PaymentID string `json:"payment_id"`
	HoldID    string `json:"hold_id"`
	Amount    int64  `json:"amount"` // minor units
	Currency  string `json:"currency"`
}

// NewEvent is the event a provider sends when payment p ends with typ at now.
// Its id is "evt_" and 128 random bits, so that the receiver can drop
// repeats of it (retries) and nobody can guess one.
func NewEvent(p booking.Payment, typ booking.EventType, now time.Time) Event {
	return Event{
		ID: "evt_" + booking.NewID(), Type: typ, Created: now.Unix(),
		Data: EventData{PaymentID: p.ID, HoldID: p.HoldID, Amount: int64(p.Amount), Currency: p.Currency},
	}
}

// PaymentEvent is e as the domain settles it.
func (e Event) PaymentEvent() booking.PaymentEvent {
	return booking.PaymentEvent{
		ID: e.ID, Type: e.Type, PaymentID: e.Data.PaymentID, HoldID: e.Data.HoldID,
		Amount: booking.Money(e.Data.Amount), Currency: e.Data.Currency,
	}
}

// ParseEvent decodes a callback body strictly: one JSON object, no trailing
// data, no duplicate or differently-cased names (encoding/json would
// silently take the last, or match "Type" for "type"), every field present
// with its exact JSON type, a known event type, well-formed ids, a
// non-negative integer amount and a three-letter currency. Unknown fields
// are ignored, as providers add fields over time. Errors match
// ErrMalformed. Call it only on a body whose signature has been verified.
func ParseEvent(body []byte) (Event, error) {
	top, err := decodeObject(body)
	if err != nil {
		return Event{}, malformed("body: %v", err)
	}
	var e Event
	var typ string
	if e.ID, err = idField(top, "id"); err != nil {
		return Event{}, err
	}
	if typ, err = stringField(top, "type"); err != nil {
		return Event{}, err
	}
	e.Type = booking.EventType(typ)
	if e.Type != booking.EventPaymentSucceeded && e.Type != booking.EventPaymentFailed {
		return Event{}, malformed("unknown event type")
	}
	if e.Created, err = intField(top, "created"); err != nil {
		return Event{}, err
	}
	if e.Created <= 0 {
		return Event{}, malformed("created must be positive unix seconds")
	}
	raw, ok := top["data"]
	if !ok {
		return Event{}, malformed("data is missing")
	}
	data, err := decodeObject(raw)
	if err != nil {
		return Event{}, malformed("data: %v", err)
	}
	if e.Data.PaymentID, err = idField(data, "payment_id"); err != nil {
		return Event{}, err
	}
	if e.Data.HoldID, err = idField(data, "hold_id"); err != nil {
		return Event{}, err
	}
	if e.Data.Amount, err = intField(data, "amount"); err != nil {
		return Event{}, err
	}
	if e.Data.Amount < 0 {
		return Event{}, malformed("amount is negative")
	}
	if e.Data.Currency, err = stringField(data, "currency"); err != nil {
		return Event{}, err
	}
	if !validCurrency(e.Data.Currency) {
		return Event{}, malformed("currency is not three capital letters")
	}
	return e, nil
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// decodeObject reads one JSON object into its members, refusing duplicate
// names and anything after the object.
func decodeObject(raw []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	fields := make(map[string]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New("invalid JSON")
		}
		name, ok := tok.(string)
		if !ok {
			return nil, errors.New("invalid JSON")
		}
		if _, dup := fields[name]; dup {
			return nil, errors.New("duplicate field")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errors.New("invalid JSON")
		}
		fields[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, errors.New("invalid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return fields, nil
}

func stringField(obj map[string]json.RawMessage, name string) (string, error) {
	raw, ok := obj[name]
	if !ok {
		return "", malformed("%s is missing", name)
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", malformed("%s is not a string", name)
	}
	return s, nil
}

func idField(obj map[string]json.RawMessage, name string) (string, error) {
	s, err := stringField(obj, name)
	if err != nil {
		return "", err
	}
	if !validID(s) {
		return "", malformed("%s is not a valid id", name)
	}
	return s, nil
}

// intField accepts a JSON integer only: 45000, not 45000.0, 4.5e4 or "45000".
func intField(obj map[string]json.RawMessage, name string) (int64, error) {
	raw, ok := obj[name]
	if !ok {
		return 0, malformed("%s is missing", name)
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, malformed("%s is not an integer", name)
	}
	return n, nil
}

// validID accepts the ids we and common providers make (base32, "evt_…",
// UUIDs), and keeps control characters, markup and megabyte-long strings out
// of the database and the logs.
func validID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validCurrency(s string) bool {
	return len(s) == 3 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z' && 'A' <= s[2] && s[2] <= 'Z'
}
