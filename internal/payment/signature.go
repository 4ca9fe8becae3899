package payment

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries a callback's signature (SPEC §6):
//
//	Boxoffice-Signature: t=1767225600,v1=5257a869…
//
// v1 is the hex HMAC-SHA256, keyed with PAYMENT_WEBHOOK_SECRET, of the
// decimal t, a dot and the raw body. Signing the timestamp with the body
// lets the receiver refuse replays of old callbacks.
const SignatureHeader = "Boxoffice-Signature"

// DefaultTolerance is how far the signature's timestamp may be from the
// receiver's clock, either side, before the callback counts as stale: long
// enough for clock skew and a slow network, short enough to make a captured
// callback useless soon.
const DefaultTolerance = 5 * time.Minute

// maxSignatureHeader bounds the work a hostile header can cause. It leaves
// room for dozens of v1 values, far more than any rotation needs.
const maxSignatureHeader = 4096

// Signature is a parsed Boxoffice-Signature header.
type Signature struct {
	Timestamp int64    // unix seconds, as signed
	V1        [][]byte // candidate HMAC-SHA256 values; one match is enough
}

// Sign returns the Boxoffice-Signature header value for body sent at t.
func Sign(secret, body []byte, t time.Time) string {
	ts := t.Unix()
	return "t=" + strconv.FormatInt(ts, 10) + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

// mac is the v1 scheme: HMAC-SHA256 of "<t>.<body>".
func mac(secret []byte, ts int64, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(strconv.AppendInt(nil, ts, 10))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// ParseSignatureHeader parses "t=<unix>,v1=<hex>[,v1=<hex>…]". It is strict
// where ambiguity could matter (exactly one t, in canonical decimal so that
// the signed text is unambiguous; every v1 a full SHA-256 in hex; no empty
// items) and ignores other schemes ("v0=…", a future "v2=…") so that a
// provider can add one without breaking us. Errors are
// ErrSignatureMalformed.
func ParseSignatureHeader(header string) (Signature, error) {
	if len(header) > maxSignatureHeader {
		return Signature{}, fmt.Errorf("%w: longer than %d bytes", ErrSignatureMalformed, maxSignatureHeader)
	}
	var sig Signature
	seenT := false
	for item := range strings.SplitSeq(header, ",") {
		key, value, ok := strings.Cut(strings.Trim(item, " \t"), "=")
		if !ok || key == "" {
			return Signature{}, fmt.Errorf("%w: item is not key=value", ErrSignatureMalformed)
		}
		switch key {
		case "t":
			if seenT {
				return Signature{}, fmt.Errorf("%w: more than one t", ErrSignatureMalformed)
			}
			ts, ok := parseUnix(value)
			if !ok {
				return Signature{}, fmt.Errorf("%w: t is not unix seconds", ErrSignatureMalformed)
			}
			sig.Timestamp, seenT = ts, true
		case "v1":
			v, err := hex.DecodeString(value)
			if err != nil || len(v) != sha256.Size {
				return Signature{}, fmt.Errorf("%w: v1 is not a hex SHA-256", ErrSignatureMalformed)
			}
			sig.V1 = append(sig.V1, v)
		}
	}
	switch {
	case !seenT:
		return Signature{}, fmt.Errorf("%w: no t", ErrSignatureMalformed)
	case len(sig.V1) == 0:
		return Signature{}, fmt.Errorf("%w: no v1", ErrSignatureMalformed)
	}
	return sig, nil
}

// parseUnix accepts non-negative decimal seconds without sign or leading
// zeros: the one spelling Sign produces.
func parseUnix(s string) (int64, bool) {
	if s == "" || len(s) > 19 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	ts, err := strconv.ParseInt(s, 10, 64)
	return ts, err == nil
}

// Verify checks header against the raw body. It accepts when any v1 value
// matches the HMAC under any of secrets (several secrets let the receiver
// rotate; several v1 values let the sender rotate) and the timestamp is at
// most tolerance away from now, either side (DefaultTolerance when
// tolerance <= 0). Comparisons are constant-time. Errors match
// ErrBadSignature, except a configuration without a non-empty secret.
func Verify(secrets [][]byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if !anySecret(secrets) {
		return errNoSecret
	}
	if header == "" {
		return ErrSignatureMissing
	}
	sig, err := ParseSignatureHeader(header)
	if err != nil {
		return err
	}
	if !sig.matches(secrets, body) {
		return ErrSignatureMismatch
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	if !withinTolerance(sig.Timestamp, now, tolerance) {
		return ErrSignatureStale
	}
	return nil
}

func anySecret(secrets [][]byte) bool {
	for _, s := range secrets {
		if len(s) > 0 {
			return true
		}
	}
	return false
}

// matches compares every candidate with every secret's HMAC, without
// stopping early, so that timing says nothing about which one matched.
func (sig Signature) matches(secrets [][]byte, body []byte) bool {
	ok := false
	for _, secret := range secrets {
		if len(secret) == 0 {
			continue
		}
		want := mac(secret, sig.Timestamp, body)
		for _, got := range sig.V1 {
			if hmac.Equal(want, got) {
				ok = true
			}
		}
	}
	return ok
}

// withinTolerance reports whether unix seconds ts is at most tol from now.
// It avoids building a time.Time from a timestamp so far ahead that the
// conversion would overflow.
func withinTolerance(ts int64, now time.Time, tol time.Duration) bool {
	if ts > now.Unix()+int64(tol/time.Second)+1 {
		return false
	}
	d := now.Sub(time.Unix(ts, 0))
	return -tol <= d && d <= tol
}
