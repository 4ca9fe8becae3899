package booking

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"sync"
	"time"
)

// Clock tells the time. Tests move a ManualClock instead of sleeping.
type Clock interface {
	Now() time.Time
}

// SystemClock is the real clock, in UTC and without the monotonic reading so
// that times compare the same before and after a round trip through a store.
type SystemClock struct{}

func (SystemClock) Now() time.Time { return time.Now().UTC().Round(0) }

// ManualClock is a Clock that only moves when told to.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t.UTC().Round(0)} }

func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t.UTC().Round(0)
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns an unguessable id of 128 random bits, 26 characters.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return idEncoding.EncodeToString(b[:])
}

// sortableEncoding is base32 over the same characters as NewID's, in
// byte order, so that ids compare as the bytes they encode.
var sortableEncoding = base32.NewEncoding("234567abcdefghijklmnopqrstuvwxyz").WithPadding(base32.NoPadding)

// NewHoldID returns the id of a hold made at now: 48 bits of its unix
// milliseconds, then 128 random bits, 36 characters that sort by time. The
// random part makes it unguessable. The time part makes a store's index of
// holds grow at one end, so that each new hold is written to the page the
// previous one was, instead of a random page of an ever-growing table.
func NewHoldID(now time.Time) string {
	var b [22]byte
	ms := uint64(now.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	_, _ = rand.Read(b[6:])
	return sortableEncoding.EncodeToString(b[:])
}

// ticketAlphabet leaves out letters people confuse with digits (I, L, O, U).
const ticketAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewTicketCode returns a short code a person can read out at the door:
// "7K3M-Q9PA", 40 random bits.
func NewTicketCode() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	code := make([]byte, 0, 9)
	for i, v := range b {
		if i == 4 {
			code = append(code, '-')
		}
		code = append(code, ticketAlphabet[int(v)%len(ticketAlphabet)])
	}
	return string(code)
}

// DatabaseClock is a store whose database server keeps time of its own
// (MongoDB, on other hosts). Every process decides the seat rule by its own
// clock, so processes on hosts whose clocks disagree disagree about when a
// lock lapses: a host 30 s fast frees seats 30 s early. The skew is checked
// against the database's clock, the one all processes share.
type DatabaseClock interface {
	DatabaseTime(ctx context.Context) (time.Time, error)
}

// MaxClockSkew is how far a process's clock may be from the database's
// before it warns: well under a second, compared with HOLD_TTL's minutes,
// is what NTP keeps.
const MaxClockSkew = time.Second

// ClockSkew is how far clock is ahead of db's (negative: behind), measured
// against the middle of one round trip; the error of the measure is at
// most half the round trip, which it returns too.
func ClockSkew(ctx context.Context, db DatabaseClock, clock Clock) (skew, margin time.Duration, err error) {
	before := clock.Now()
	at, err := db.DatabaseTime(ctx)
	if err != nil {
		return 0, 0, err
	}
	after := clock.Now()
	rtt := after.Sub(before)
	return before.Add(rtt / 2).Sub(at), rtt / 2, nil
}

// ClockSkew is ClockSkew of the service's clock against its store's
// database, when the store has a clock of its own (ok false otherwise: an
// embedded SQLite file shares the process's host and clock).
func (s *Service) ClockSkew(ctx context.Context) (skew, margin time.Duration, ok bool, err error) {
	db, ok := s.store.(DatabaseClock)
	if !ok {
		return 0, 0, false, nil
	}
	skew, margin, err = ClockSkew(ctx, db, s.clock)
	return skew, margin, true, err
}

// SkewTooLarge reports whether skew, measured within margin, is surely
// beyond MaxClockSkew.
func SkewTooLarge(skew, margin time.Duration) bool {
	if skew < 0 {
		skew = -skew
	}
	return skew-margin > MaxClockSkew
}
