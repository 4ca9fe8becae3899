package payment

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// t0 is the fake clock's "now" in these tests: 2026-01-01T00:00:00Z.
var t0 = time.Unix(1767225600, 0).UTC()

var (
	secret    = []byte("whsec_test_current")
	oldSecret = []byte("whsec_test_previous")
)

const sampleBody = `{"id":"evt_abc","type":"payment.succeeded","created":1767225600,"data":{"payment_id":"pay1","hold_id":"hold1","amount":45000,"currency":"INR"}}`

// hexMAC computes the v1 value independently of the code under test.
func hexMAC(key []byte, ts int64, body string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(strconv.FormatInt(ts, 10) + "." + body))
	return hex.EncodeToString(m.Sum(nil))
}

func TestSignMatchesSpec(t *testing.T) {
	got := Sign(secret, []byte(sampleBody), t0)
	want := "t=1767225600,v1=" + hexMAC(secret, t0.Unix(), sampleBody)
	if got != want {
		t.Errorf("Sign = %q, want %q", got, want)
	}
}

func TestVerify(t *testing.T) {
	body := []byte(sampleBody)
	ts := t0.Unix()
	good := hexMAC(secret, ts, sampleBody)
	tests := []struct {
		name    string
		secrets [][]byte
		header  string
		body    []byte
		now     time.Time
		want    error // nil, or the sentinel errors.Is must find
	}{
		{name: "valid", header: Sign(secret, body, t0), now: t0},
		{name: "valid at edge of tolerance, past", header: Sign(secret, body, t0), now: t0.Add(DefaultTolerance)},
		{name: "valid at edge of tolerance, future", header: Sign(secret, body, t0), now: t0.Add(-DefaultTolerance)},
		{name: "missing header", header: "", now: t0, want: ErrSignatureMissing},
		{name: "wrong secret", header: Sign([]byte("someone else"), body, t0), now: t0, want: ErrSignatureMismatch},
		{name: "stale, past", header: Sign(secret, body, t0), now: t0.Add(DefaultTolerance + time.Second), want: ErrSignatureStale},
		{name: "stale, future", header: Sign(secret, body, t0), now: t0.Add(-DefaultTolerance - time.Second), want: ErrSignatureStale},
		{name: "stale, far future timestamp", header: "t=9223372036854775807,v1=" + hexMAC(secret, 9223372036854775807, sampleBody), now: t0, want: ErrSignatureStale},
		{name: "body tampered", header: Sign(secret, body, t0), body: []byte(strings.Replace(sampleBody, "45000", "4500", 1)), now: t0, want: ErrSignatureMismatch},
		{name: "timestamp tampered", header: "t=" + strconv.FormatInt(ts+1, 10) + ",v1=" + good, now: t0, want: ErrSignatureMismatch},
		{name: "several v1, second matches", header: "t=" + strconv.FormatInt(ts, 10) + ",v1=" + hexMAC(oldSecret, ts, sampleBody) + ",v1=" + good, now: t0},
		{name: "several v1, none matches", header: "t=" + strconv.FormatInt(ts, 10) + ",v1=" + hexMAC(oldSecret, ts, sampleBody) + ",v1=" + strings.Repeat("0", 64), now: t0, want: ErrSignatureMismatch},
		{name: "receiver rotating: old secret still accepted", secrets: [][]byte{secret, oldSecret}, header: Sign(oldSecret, body, t0), now: t0},
		{name: "unknown scheme ignored", header: "t=" + strconv.FormatInt(ts, 10) + ",v0=abc,v1=" + good, now: t0},
		{name: "spaces around items", header: "t=" + strconv.FormatInt(ts, 10) + ", v1=" + good, now: t0},
		{name: "malformed: no t", header: "v1=" + good, now: t0, want: ErrSignatureMalformed},
		{name: "malformed: no v1", header: "t=" + strconv.FormatInt(ts, 10), now: t0, want: ErrSignatureMalformed},
		{name: "malformed: garbage", header: "sha256=" + good, now: t0, want: ErrSignatureMalformed},
		{name: "malformed: v1 not hex", header: "t=" + strconv.FormatInt(ts, 10) + ",v1=" + strings.Repeat("z", 64), now: t0, want: ErrSignatureMalformed},
		{name: "malformed: v1 too short", header: "t=" + strconv.FormatInt(ts, 10) + ",v1=" + good[:62], now: t0, want: ErrSignatureMalformed},
		{name: "malformed: negative t", header: "t=-1,v1=" + good, now: t0, want: ErrSignatureMalformed},
		{name: "malformed: t with leading zero", header: "t=0" + strconv.FormatInt(ts, 10) + ",v1=" + good, now: t0, want: ErrSignatureMalformed},
		{name: "malformed: two t", header: "t=" + strconv.FormatInt(ts, 10) + ",t=" + strconv.FormatInt(ts, 10) + ",v1=" + good, now: t0, want: ErrSignatureMalformed},
		{name: "malformed: trailing comma", header: Sign(secret, body, t0) + ",", now: t0, want: ErrSignatureMalformed},
		{name: "malformed: too long", header: Sign(secret, body, t0) + strings.Repeat(",v1="+good, 100), now: t0, want: ErrSignatureMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			secrets := tt.secrets
			if secrets == nil {
				secrets = [][]byte{secret}
			}
			b := tt.body
			if b == nil {
				b = body
			}
			err := Verify(secrets, tt.header, b, tt.now, DefaultTolerance)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Verify: %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
			if !errors.Is(err, ErrBadSignature) || errors.Is(err, ErrMalformed) {
				t.Fatalf("Verify: %v is not told apart as ErrBadSignature", err)
			}
		})
	}
}

func TestVerifyRefusesEmptySecret(t *testing.T) {
	// An empty key is a misconfiguration: its HMAC is anyone's to compute.
	body := []byte(sampleBody)
	for _, secrets := range [][][]byte{nil, {}, {nil}, {[]byte("")}} {
		err := Verify(secrets, Sign(nil, body, t0), body, t0, DefaultTolerance)
		if err == nil || errors.Is(err, ErrBadSignature) {
			t.Errorf("Verify(%q): %v, want a configuration error", secrets, err)
		}
	}
}

func TestParseSignatureHeader(t *testing.T) {
	a, b := strings.Repeat("ab", 32), strings.Repeat("cd", 32)
	got, err := ParseSignatureHeader("t=1767225600,v1=" + a + ",v2=future,v1=" + b)
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := hex.DecodeString(a)
	cd, _ := hex.DecodeString(b)
	want := Signature{Timestamp: 1767225600, V1: [][]byte{ab, cd}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseSignatureHeader (-want +got):\n%s", diff)
	}
}
