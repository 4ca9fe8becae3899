package booking_test

import (
	"context"
	"encoding/base32"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestNewID(t *testing.T) {
	const n = 10000
	valid := regexp.MustCompile(`^[a-z2-7]{26}$`)
	enc := base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)
	seen := make(map[string]bool, n)
	var bitsSet [128]int
	for range n {
		id := booking.NewID()
		if !valid.MatchString(id) {
			t.Fatalf("NewID() = %q, want 26 characters of [a-z2-7]", id)
		}
		if seen[id] {
			t.Fatalf("NewID() returned %q twice in %d calls", id, n)
		}
		seen[id] = true
		raw, err := enc.DecodeString(id)
		if err != nil || len(raw) != 16 {
			t.Fatalf("NewID() = %q decodes to %d bytes (%v), want 16 (128 bits)", id, len(raw), err)
		}
		for i := range 128 {
			if raw[i/8]&(1<<(i%8)) != 0 {
				bitsSet[i]++
			}
		}
	}
	// Every one of the 128 bits must vary: each is set in about half of the
	// ids (binomial, n=10000, sigma 50: ±400 is 8 sigma, never by chance).
	for i, c := range bitsSet {
		if c < n/2-400 || c > n/2+400 {
			t.Errorf("bit %d set in %d of %d ids; not random", i, c, n)
		}
	}
}

func TestNewHoldID(t *testing.T) {
	const n = 1000
	valid := regexp.MustCompile(`^[a-z2-7]{36}$`)
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	seen := make(map[string]bool, n)
	prev := ""
	for i := range n {
		// Every tenth id a millisecond later: ids of one millisecond differ
		// by their random part only.
		id := booking.NewHoldID(at.Add(time.Duration(i/10) * time.Millisecond))
		if !valid.MatchString(id) {
			t.Fatalf("NewHoldID = %q, want 36 characters of [a-z2-7]", id)
		}
		if seen[id] {
			t.Fatalf("NewHoldID returned %q twice", id)
		}
		seen[id] = true
		if i%10 == 0 && id <= prev {
			t.Fatalf("NewHoldID %q a millisecond later sorts before or at %q", id, prev)
		}
		prev = id
	}
	// The random part: two ids of the same millisecond share the 10
	// characters of the time and differ after them.
	a, b := booking.NewHoldID(at), booking.NewHoldID(at)
	if a[:9] != b[:9] || a[10:] == b[10:] {
		t.Errorf("ids %q and %q of one millisecond: want the same time, then different random parts", a, b)
	}
}

func TestNewTicketCode(t *testing.T) {
	valid := regexp.MustCompile(`^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{4}-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{4}$`)
	seen := map[string]bool{}
	// 1000 codes of 40 bits collide with probability 5e-7.
	for range 1000 {
		c := booking.NewTicketCode()
		if !valid.MatchString(c) {
			t.Fatalf("NewTicketCode() = %q, want XXXX-XXXX without I, L, O, U", c)
		}
		if seen[c] {
			t.Fatalf("NewTicketCode() returned %q twice in 1000 calls", c)
		}
		seen[c] = true
	}
}

func TestManualClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 10, 0, 0, 5, time.FixedZone("IST", 5*3600+1800))
	c := booking.NewManualClock(start)
	if got := c.Now(); !got.Equal(start) || got.Location() != time.UTC {
		t.Errorf("Now() = %v, want %v in UTC", got, start)
	}
	c.Advance(15*time.Minute + 1)
	if diff := cmp.Diff(start.Add(15*time.Minute+1), c.Now()); diff != "" {
		t.Errorf("after Advance (-want +got):\n%s", diff)
	}
	c.Set(start.Add(-time.Hour))
	if diff := cmp.Diff(start.Add(-time.Hour), c.Now()); diff != "" {
		t.Errorf("after Set (-want +got):\n%s", diff)
	}
	if got := c.Now(); got.Location() != time.UTC {
		t.Errorf("after Set: location %v, want UTC", got.Location())
	}
}

func TestSystemClock(t *testing.T) {
	before := time.Now()
	got := booking.SystemClock{}.Now()
	after := time.Now()
	if got.Location() != time.UTC {
		t.Errorf("location %v, want UTC", got.Location())
	}
	if got.Before(before) || got.After(after) {
		t.Errorf("Now() = %v, not between %v and %v", got, before, after)
	}
	// No monotonic reading: == agrees with Equal after a round trip.
	if rt := time.Unix(0, got.UnixNano()).UTC(); rt != got {
		t.Errorf("Now() = %#v does not survive a round trip through UnixNano (%#v)", got, rt)
	}
}

// dbClock is a database whose clock is off the process's by off.
type dbClock struct {
	clock booking.Clock
	off   time.Duration
}

func (d dbClock) DatabaseTime(context.Context) (time.Time, error) {
	return d.clock.Now().Add(d.off), nil
}

func TestClockSkew(t *testing.T) {
	c := booking.NewManualClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	for _, off := range []time.Duration{0, -45 * time.Second, 2 * time.Second, 300 * time.Millisecond} {
		skew, margin, err := booking.ClockSkew(context.Background(), dbClock{c, off}, c)
		if err != nil || skew != -off || margin != 0 {
			t.Errorf("database %v off: skew %v ± %v, %v; want %v", off, skew, margin, err, -off)
		}
		if got, want := booking.SkewTooLarge(skew, margin), off > time.Second || off < -time.Second; got != want {
			t.Errorf("SkewTooLarge(%v) = %v, want %v", skew, got, want)
		}
	}
	if booking.SkewTooLarge(1500*time.Millisecond, time.Second) {
		t.Error("a skew of 1.5 s measured to within 1 s is not surely too large")
	}
}
