package payment

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzVerifyCallback feeds arbitrary headers and bodies to the callback
// check. It must never panic, must sort every refusal into exactly one of
// ErrMalformed (400) and ErrBadSignature (401), and must only accept events
// that survive a round trip. Each body is also tried correctly signed, so
// that the fuzzer reaches the JSON decoder and not just the HMAC.
func FuzzVerifyCallback(f *testing.F) {
	f.Add(Sign(secret, []byte(sampleBody), t0), []byte(sampleBody))
	f.Add("", []byte(sampleBody))
	f.Add("t=1767225600,v1=00", []byte(`{}`))
	f.Add("t=1767225600,v1="+hexMAC(oldSecret, t0.Unix(), sampleBody)+",v1="+hexMAC(secret, t0.Unix(), sampleBody), []byte(sampleBody))
	f.Add(Sign(secret, []byte(sampleBody), t0.Add(-DefaultTolerance-1e9)), []byte(sampleBody))
	f.Add("t=1767225600,v1=zz", []byte(`{"id":"evt_1","type":"payment.failed","created":1,"data":{"payment_id":"p","hold_id":"h","amount":1,"currency":"INR","amount":2}}`))
	secrets := [][]byte{secret}

	f.Fuzz(func(t *testing.T, header string, body []byte) {
		check := func(h http.Header) {
			ev, err := VerifyEvent(secrets, h, body, t0)
			malformed, badSig := errors.Is(err, ErrMalformed), errors.Is(err, ErrBadSignature)
			switch {
			case err != nil && malformed == badSig:
				t.Fatalf("error %v is not exactly one of ErrMalformed and ErrBadSignature", err)
			case err != nil:
				return
			}
			e, err := ParseEvent(body)
			if err != nil || e.PaymentEvent() != ev {
				t.Fatalf("accepted %q as %+v, but ParseEvent says %+v, %v", body, ev, e, err)
			}
			again, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseEvent(again)
			if err != nil {
				t.Fatalf("re-encoded event %s does not parse: %v", again, err)
			}
			if diff := cmp.Diff(e, back); diff != "" {
				t.Fatalf("round trip (-first +second):\n%s", diff)
			}
		}
		check(http.Header{SignatureHeader: {header}})

		signed := http.Header{SignatureHeader: {Sign(secret, body, t0)}}
		if _, err := VerifyEvent(secrets, signed, body, t0); errors.Is(err, ErrBadSignature) && len(body) <= MaxCallbackBytes {
			t.Fatalf("correctly signed body refused as %v", err)
		}
		check(signed)
	})
}

// FuzzParseSignatureHeader checks that the header parser never panics, that
// what it accepts is well-formed, and that the canonical spelling of an
// accepted header parses to the same thing.
func FuzzParseSignatureHeader(f *testing.F) {
	f.Add(Sign(secret, []byte(sampleBody), t0))
	f.Add("t=1767225600,v1=" + strings.Repeat("ab", 32) + ",v1=" + strings.Repeat("cd", 32))
	f.Add("t=1767225600, v0=legacy, v1=" + strings.Repeat("0", 64))
	f.Add("t=,v1=")
	f.Add("t=9223372036854775807,v1=" + strings.Repeat("f", 64))
	f.Add("t=1,t=2,v1=" + strings.Repeat("0", 64))
	f.Add("=,==,v1")

	f.Fuzz(func(t *testing.T, header string) {
		sig, err := ParseSignatureHeader(header)
		if err != nil {
			if !errors.Is(err, ErrSignatureMalformed) || !errors.Is(err, ErrBadSignature) {
				t.Fatalf("error %v is not ErrSignatureMalformed", err)
			}
			return
		}
		if sig.Timestamp < 0 || len(sig.V1) == 0 {
			t.Fatalf("accepted %q as %+v", header, sig)
		}
		canonical := "t=" + strconv.FormatInt(sig.Timestamp, 10)
		for _, v := range sig.V1 {
			if len(v) != 32 {
				t.Fatalf("accepted a %d-byte v1 in %q", len(v), header)
			}
			canonical += ",v1=" + hex.EncodeToString(v)
		}
		again, err := ParseSignatureHeader(canonical)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", canonical, header, err)
		}
		if diff := cmp.Diff(sig, again); diff != "" {
			t.Fatalf("canonical form parses differently (-first +second):\n%s", diff)
		}
	})
}
