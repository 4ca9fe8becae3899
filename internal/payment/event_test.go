package payment

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestEventJSONShape(t *testing.T) {
	p := booking.Payment{ID: "pay1", HoldID: "hold1", BookingID: "bk1", Amount: 45000, Currency: "INR", State: booking.PaymentPending}
	ev := NewEvent(p, booking.EventPaymentSucceeded, t0)
	if !strings.HasPrefix(ev.ID, "evt_") || len(ev.ID) != len("evt_")+26 {
		t.Errorf("event id %q: want evt_ and 128 random bits (26 base32 characters)", ev.ID)
	}
	if other := NewEvent(p, booking.EventPaymentSucceeded, t0); other.ID == ev.ID {
		t.Errorf("two events share id %q", ev.ID)
	}
	ev.ID = "evt_abc"
	got, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != sampleBody {
		t.Errorf("encoded event:\n got %s\nwant %s", got, sampleBody)
	}
}

func TestParseEvent(t *testing.T) {
	want := Event{ID: "evt_abc", Type: booking.EventPaymentSucceeded, Created: 1767225600,
		Data: EventData{PaymentID: "pay1", HoldID: "hold1", Amount: 45000, Currency: "INR"}}
	got, err := ParseEvent([]byte(sampleBody))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseEvent (-want +got):\n%s", diff)
	}
	wantPE := booking.PaymentEvent{ID: "evt_abc", Type: booking.EventPaymentSucceeded, PaymentID: "pay1", HoldID: "hold1", Amount: 45000, Currency: "INR"}
	if diff := cmp.Diff(wantPE, got.PaymentEvent()); diff != "" {
		t.Errorf("PaymentEvent (-want +got):\n%s", diff)
	}
}

func TestParseEventAccepts(t *testing.T) {
	for name, body := range map[string]string{
		"failed":                `{"id":"evt_1","type":"payment.failed","created":1,"data":{"payment_id":"p","hold_id":"h","amount":0,"currency":"USD"}}`,
		"unknown fields":        `{"id":"evt_1","type":"payment.failed","created":1,"livemode":false,"data":{"payment_id":"p","hold_id":"h","amount":1,"currency":"INR","method":"card"}}`,
		"whitespace, any order": "\n{ \"data\" : {\"currency\":\"INR\",\"amount\":1,\"hold_id\":\"h\",\"payment_id\":\"p\"},\n\"created\":1, \"type\":\"payment.failed\", \"id\":\"evt_1\" }\n",
	} {
		if _, err := ParseEvent([]byte(body)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseEventMalformed(t *testing.T) {
	// replace returns sampleBody with old replaced by new, once.
	replace := func(old, new string) string {
		if !strings.Contains(sampleBody, old) {
			t.Fatalf("sample has no %q", old)
		}
		return strings.Replace(sampleBody, old, new, 1)
	}
	tests := map[string]string{
		"empty":                   ``,
		"not JSON":                `payment ok`,
		"array":                   `[` + sampleBody + `]`,
		"null":                    `null`,
		"truncated":               sampleBody[:len(sampleBody)-1],
		"trailing data":           sampleBody + `{}`,
		"two objects":             sampleBody + sampleBody,
		"unknown type":            replace(`payment.succeeded`, `payment.refunded`),
		"type cased differently":  replace(`payment.succeeded`, `Payment.Succeeded`),
		"field cased differently": replace(`"type"`, `"Type"`),
		"type not a string":       replace(`"payment.succeeded"`, `1`),
		"missing id":              replace(`"id":"evt_abc",`, ``),
		"empty id":                replace(`"evt_abc"`, `""`),
		"id with markup":          replace(`"evt_abc"`, `"<script>"`),
		"id too long":             replace(`"evt_abc"`, `"`+strings.Repeat("a", 129)+`"`),
		"id null":                 replace(`"evt_abc"`, `null`),
		"missing type":            replace(`"type":"payment.succeeded",`, ``),
		"missing created":         replace(`"created":1767225600,`, ``),
		"created zero":            replace(`1767225600`, `0`),
		"created a string":        replace(`1767225600`, `"1767225600"`),
		"missing data":            `{"id":"evt_abc","type":"payment.succeeded","created":1767225600}`,
		"data null":               `{"id":"evt_abc","type":"payment.succeeded","created":1767225600,"data":null}`,
		"data not an object":      `{"id":"evt_abc","type":"payment.succeeded","created":1767225600,"data":"x"}`,
		"missing payment_id":      replace(`"payment_id":"pay1",`, ``),
		"missing hold_id":         replace(`"hold_id":"hold1",`, ``),
		"empty hold_id":           replace(`"hold1"`, `""`),
		"missing amount":          replace(`"amount":45000,`, ``),
		"amount negative":         replace(`45000`, `-1`),
		"amount fractional":       replace(`45000`, `450.5`),
		"amount as float":         replace(`45000`, `45000.0`),
		"amount exponent":         replace(`45000`, `4.5e4`),
		"amount a string":         replace(`45000`, `"45000"`),
		"amount too large":        replace(`45000`, `9223372036854775808`),
		"amount null":             replace(`45000`, `null`),
		"missing currency":        replace(`,"currency":"INR"`, ``),
		"currency lower case":     replace(`"INR"`, `"inr"`),
		"currency too long":       replace(`"INR"`, `"INRR"`),
		"duplicate type":          replace(`"type":"payment.succeeded"`, `"type":"payment.failed","type":"payment.succeeded"`),
		"duplicate amount":        replace(`"amount":45000`, `"amount":1,"amount":45000`),
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseEvent([]byte(body))
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("ParseEvent(%q): %v, want ErrMalformed", body, err)
			}
			if errors.Is(err, ErrBadSignature) {
				t.Fatalf("ParseEvent: %v also matches ErrBadSignature", err)
			}
		})
	}
}

// TestVerifyEventOrder checks that the signature is checked on the raw bytes
// before any parsing: unsigned junk is 401, signed junk is 400.
func TestVerifyEventOrder(t *testing.T) {
	secrets := [][]byte{secret}
	signed := func(body string) http.Header {
		h := http.Header{}
		h.Set(SignatureHeader, Sign(secret, []byte(body), t0))
		return h
	}
	tests := []struct {
		name   string
		header http.Header
		body   string
		want   error
	}{
		{"valid", signed(sampleBody), sampleBody, nil},
		{"unsigned junk", http.Header{}, `not json`, ErrBadSignature},
		{"wrongly signed junk", signed("other"), `not json`, ErrBadSignature},
		{"signed junk", signed(`not json`), `not json`, ErrMalformed},
		{"signed unknown type", signed(strings.Replace(sampleBody, "succeeded", "disputed", 1)), strings.Replace(sampleBody, "succeeded", "disputed", 1), ErrMalformed},
		{"two signature headers", http.Header{SignatureHeader: {Sign(secret, []byte(sampleBody), t0), Sign(secret, []byte(sampleBody), t0)}}, sampleBody, ErrBadSignature},
		{"too large, even if signed", signed(strings.Repeat(" ", MaxCallbackBytes) + sampleBody), strings.Repeat(" ", MaxCallbackBytes) + sampleBody, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := VerifyEvent(secrets, tt.header, []byte(tt.body), t0)
			if tt.want == nil {
				if err != nil || ev.ID != "evt_abc" {
					t.Fatalf("VerifyEvent = %+v, %v; want evt_abc", ev, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("VerifyEvent: %v, want %v", err, tt.want)
			}
		})
	}
}
