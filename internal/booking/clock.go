package booking

import (
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
