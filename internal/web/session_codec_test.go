package web

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
)

var codecDeadline = time.Date(2026, 12, 7, 10, 30, 0, 123456789, time.FixedZone("IST", 5*3600+1800))

func TestSessionCodecRoundTrips(t *testing.T) {
	for name, values := range map[string]map[string]any{
		"empty":            {},
		"visitor and csrf": {keyVisitor: "v3toewpxurung7yima2pbygcry", keyCSRF: "Zm9vYmFyYmF6"},
		"admin":            {keyVisitor: "v", keyCSRF: "c", keyAdmin: "adm1"},
		"empty strings":    {"": ""},
		"non-strings":      {keyVisitor: "v", "count": 3}, // stored as gob
	} {
		t.Run(name, func(t *testing.T) {
			b, err := sessionCodec{}.Encode(codecDeadline, values)
			if err != nil {
				t.Fatal(err)
			}
			if own, want := strings.HasPrefix(string(b), stringSessionMagic), allStrings(values); own != want {
				t.Errorf("own format %v, want %v", own, want)
			}
			deadline, got, err := sessionCodec{}.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !deadline.Equal(codecDeadline) || !maps.Equal(got, values) {
				t.Errorf("decoded %v %v, want %v %v", deadline, got, codecDeadline, values)
			}
		})
	}
}

// TestSessionCodecReadsGob: sessions saved by earlier versions, in gob,
// still load.
func TestSessionCodecReadsGob(t *testing.T) {
	values := map[string]any{keyVisitor: "v3toewpxurung7yima2pbygcry", keyCSRF: "tok"}
	b, err := scs.GobCodec{}.Encode(codecDeadline, values)
	if err != nil {
		t.Fatal(err)
	}
	deadline, got, err := sessionCodec{}.Decode(b)
	if err != nil || !deadline.Equal(codecDeadline) || !maps.Equal(got, values) {
		t.Errorf("Decode(gob) = %v, %v, %v; want %v, %v", deadline, got, err, codecDeadline, values)
	}
}

// TestSessionCodecRefusesDamage: every truncation of a valid encoding, and
// extra bytes after it, are errors, not sessions.
func TestSessionCodecRefusesDamage(t *testing.T) {
	b, err := sessionCodec{}.Encode(codecDeadline, map[string]any{keyVisitor: "v", keyCSRF: "c"})
	if err != nil {
		t.Fatal(err)
	}
	for n := len(stringSessionMagic); n < len(b); n++ {
		if _, _, err := (sessionCodec{}).Decode(b[:n]); err == nil {
			t.Errorf("Decode of the first %d of %d bytes succeeded", n, len(b))
		}
	}
	if _, _, err := (sessionCodec{}).Decode(append(b, 'x')); err == nil {
		t.Error("Decode with a trailing byte succeeded")
	}
	d, _ := codecDeadline.MarshalBinary()
	dup := appendBytes([]byte(stringSessionMagic), d)
	dup = append(dup, 2)
	for _, kv := range []string{keyCSRF, "a", keyCSRF, "b"} {
		dup = appendBytes(dup, []byte(kv))
	}
	if _, _, err := (sessionCodec{}).Decode(dup); err == nil || !errors.Is(err, errSessionData) {
		t.Errorf("Decode with a key twice: %v, want an errSessionData", err)
	}
	if _, _, err := (sessionCodec{}).Decode([]byte("not gob")); !errors.Is(err, errSessionData) {
		t.Errorf("Decode of neither format: %v, want an errSessionData", err)
	}
}

func FuzzSessionCodec(f *testing.F) {
	for _, values := range []map[string]any{{}, {keyVisitor: "v", keyCSRF: "c"}} {
		b, err := sessionCodec{}.Encode(codecDeadline, values)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		deadline, values, err := sessionCodec{}.Decode(b)
		if err != nil || !strings.HasPrefix(string(b), stringSessionMagic) {
			return // gob's own decoder is not under test
		}
		again, err := sessionCodec{}.Encode(deadline, values)
		if err != nil {
			t.Fatalf("Encode of a decoded session: %v", err)
		}
		d2, v2, err := sessionCodec{}.Decode(again)
		if err != nil || !d2.Equal(deadline) || !maps.EqualFunc(v2, values, func(a, b any) bool { return a == b }) {
			t.Fatalf("decode(encode(%v, %v)) = %v, %v, %v", deadline, values, d2, v2, err)
		}
	})
}

// allStrings reports whether every value is a string.
func allStrings(values map[string]any) bool {
	for _, v := range values {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}
