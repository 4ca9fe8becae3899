package booking

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"time"
)

// OnSale is a waiting room in front of some shows (SPEC §18): from
// GateBefore its opening T0 (OpensAt) until it closes, a visitor needs a
// pass to reach their seat maps and holds, and visitors are admitted in
// queue order at a rate an admin sets. Admission is lazy, like the seat
// rule: how many are admitted by a moment is computed from Segments when
// asked (Admitted), never written.
type OnSale struct {
	ID   string
	Name string
	// OpensAt is T0: the covered shows' sales opening.
	OpensAt time.Time
	// ClosesAt is when the waiting room ends (Close moves it to the
	// moment of the close).
	ClosesAt time.Time
	// PassTTL is how long a pass lasts from its issue.
	PassTTL time.Duration
	// Key orders the visitors who joined before T0 (QueueRank): 32
	// random bytes made with the on-sale.
	Key []byte
	// Shows are the ids of the shows it covers.
	Shows []string
	// Segments are its admission rates over time, from T0, by From.
	Segments []Segment
	// ClosedAt is when an admin closed it; zero while it runs to ClosesAt.
	ClosedAt  time.Time
	CreatedAt time.Time
}

// Segment is one stretch of an on-sale's admission: from From (at least
// T0) until the next segment's From, Rate visitors a minute are admitted,
// none while Paused.
type Segment struct {
	From   time.Time
	Rate   int
	Paused bool
}

const (
	// DefaultOnSaleLength is how long an on-sale runs from T0 unless the
	// admin says.
	DefaultOnSaleLength = 2 * time.Hour
	// DefaultPassTTL is a pass's lifetime unless the admin says.
	DefaultPassTTL = 15 * time.Minute
	// GateBefore is how long before T0 the covered shows need a pass.
	GateBefore = 30 * time.Minute
	// SettlingMargin is how long after T0 the positions of those who
	// joined before it are first computed: a join is before T0 by the
	// clock of the process that wrote it, and processes' clocks differ
	// by up to a second or two, and a join written just before T0 may
	// still be on its way to the database. Counting earlier could give a
	// visitor a place that a late-arriving earlier join then moves.
	SettlingMargin = 5 * time.Second
	// MaxAdmissionRate bounds an on-sale's rate (visitors a minute).
	MaxAdmissionRate = 1_000_000
)

// Closed reports whether the on-sale has ended at now.
func (o OnSale) Closed(now time.Time) bool { return !now.Before(o.ClosesAt) }

// Gating reports whether its shows need a pass at now: from GateBefore
// T0 until it closes.
func (o OnSale) Gating(now time.Time) bool {
	return !now.Before(o.OpensAt.Add(-GateBefore)) && !o.Closed(now)
}

// Covers reports whether the on-sale covers show showID.
func (o OnSale) Covers(showID string) bool {
	for _, id := range o.Shows {
		if id == showID {
			return true
		}
	}
	return false
}

// SegmentAt is the segment in force at t (the first one before T0).
func (o OnSale) SegmentAt(t time.Time) Segment {
	return segmentAt(o.Segments, t)
}

func segmentAt(segs []Segment, t time.Time) Segment {
	if len(segs) == 0 {
		return Segment{Paused: true}
	}
	cur := segs[0]
	for _, s := range segs[1:] {
		if s.From.After(t) {
			break
		}
		cur = s
	}
	return cur
}

// Admitted is how many visitors are admitted by t: the rate integrated
// over the running time since t0 (each segment runs from its From, or t0
// if later, until the next one's From; paused ones admit none), rounded
// down.
func Admitted(segs []Segment, t0, t time.Time) int {
	acc := new(big.Int)
	for i, s := range segs {
		from := latest(s.From, t0)
		until := t
		if i+1 < len(segs) && segs[i+1].From.Before(until) {
			until = segs[i+1].From
		}
		if s.Paused || s.Rate <= 0 || !until.After(from) {
			continue
		}
		acc.Add(acc, new(big.Int).Mul(big.NewInt(int64(s.Rate)), big.NewInt(int64(until.Sub(from)))))
	}
	n := acc.Quo(acc, big.NewInt(int64(time.Minute)))
	if !n.IsInt64() || n.Int64() > int64(^uint(0)>>1) {
		return int(^uint(0) >> 1)
	}
	return int(n.Int64())
}

// AdmittedAt is the first moment the visitor at position p (from 0) is
// admitted, when Admitted reaches p+1; false when that never happens
// under segs as they are (the last segment is paused).
func AdmittedAt(segs []Segment, t0 time.Time, p int) (time.Time, bool) {
	if p < 0 {
		p = 0
	}
	target := new(big.Int).Mul(big.NewInt(int64(p)+1), big.NewInt(int64(time.Minute)))
	acc := new(big.Int)
	for i, s := range segs {
		from := latest(s.From, t0)
		last := i+1 == len(segs)
		var until time.Time
		if !last {
			until = segs[i+1].From
			if !until.After(from) {
				continue
			}
		}
		if s.Paused || s.Rate <= 0 {
			if last {
				return time.Time{}, false
			}
			continue
		}
		rate := big.NewInt(int64(s.Rate))
		if !last {
			gain := new(big.Int).Mul(rate, big.NewInt(int64(until.Sub(from))))
			if new(big.Int).Add(acc, gain).Cmp(target) < 0 {
				acc.Add(acc, gain)
				continue
			}
		}
		// Within this segment: the first ns at which acc + rate·d ≥ target.
		need := new(big.Int).Sub(target, acc)
		d := new(big.Int).Add(need, new(big.Int).Sub(rate, big.NewInt(1)))
		d.Quo(d, rate)
		if !d.IsInt64() || d.Int64() > int64(1<<62) {
			return time.Time{}, false
		}
		return from.Add(time.Duration(d.Int64())), true
	}
	return time.Time{}, false
}

// WaitETA is the estimated wait at now of a visitor with ahead people
// before them (SPEC §18): ⌈ahead × 60 / rate⌉ seconds, plus the time
// until T0 before it; false while the on-sale is paused (no estimate).
func WaitETA(segs []Segment, t0, now time.Time, ahead int) (time.Duration, bool) {
	cur := segmentAt(segs, now)
	if cur.Paused || cur.Rate <= 0 {
		return 0, false
	}
	if ahead < 0 {
		ahead = 0
	}
	secs := (int64(ahead)*60 + int64(cur.Rate) - 1) / int64(cur.Rate)
	eta := time.Duration(secs) * time.Second
	if now.Before(t0) {
		eta += t0.Sub(now)
	}
	return eta, true
}

// Ahead is how many are before position p at now: p minus those admitted
// so far, never below 0.
func (o OnSale) Ahead(p int, now time.Time) int {
	return max(p-Admitted(o.Segments, o.OpensAt, now), 0)
}

// AdmitsAt reports whether position p is admitted at now.
func (o OnSale) AdmitsAt(p int, now time.Time) bool {
	return p < Admitted(o.Segments, o.OpensAt, now)
}

// WithSegment returns segs after a pause, resume or change of rate at
// now: a segment from max(now, t0) with the rate and pause given, which
// replaces the first segment's rate and pause before T0 (and a segment
// of the same instant).
func WithSegment(segs []Segment, t0, now time.Time, rate int, paused bool) []Segment {
	from := latest(now, t0)
	out := append([]Segment(nil), segs...)
	if n := len(out); n > 0 && !out[n-1].From.Before(from) {
		out[n-1].Rate, out[n-1].Paused = rate, paused
		return out
	}
	return append(out, Segment{From: from, Rate: rate, Paused: paused})
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// QueueEntry is one visitor's place in an on-sale's queue: the one row a
// join writes (SPEC §18).
type QueueEntry struct {
	OnSaleID string
	JoinID   string
	// JoinedAt is when it joined, by the clock of the process that wrote
	// it.
	JoinedAt time.Time
	// Before says it joined before T0: such visitors are ordered by Rank.
	Before bool
	// Rank is QueueRank of JoinID: the random order of those who joined
	// before T0.
	Rank string
}

// NewQueueEntry is the entry of a visitor joining o at now with joinID.
func NewQueueEntry(o OnSale, joinID string, now time.Time) QueueEntry {
	return QueueEntry{
		OnSaleID: o.ID, JoinID: joinID, JoinedAt: now,
		Before: now.Before(o.OpensAt), Rank: QueueRank(o.Key, joinID),
	}
}

// QueueRank is the HMAC-SHA256 of joinID under key, in hex: any process
// computes the same, and nobody without the key can choose a good one.
func QueueRank(key []byte, joinID string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(joinID))
	return hex.EncodeToString(m.Sum(nil))
}

// PositionKnown reports whether e's position may be asked for at now:
// from SettlingMargin after T0, or after e joined if later, when every
// join before it is in the database. For a join after T0 too: a join
// before T0 by a clock behind, or a later join with an earlier time
// (another process's clock, a slower insert), may still be on its way,
// and would be numbered after e (NumberQueueStep numbers what is stored,
// so no place is given twice either way; waiting keeps join order).
func (o OnSale) PositionKnown(e QueueEntry, now time.Time) bool {
	return !now.Before(latest(o.OpensAt, e.JoinedAt).Add(SettlingMargin))
}

// OnSaleRequest is an admin's new on-sale, as the form gives it. Either
// MovieID or ShowIDs names the shows it covers.
type OnSaleRequest struct {
	ID       string // made by the caller (NewID)
	Key      []byte // 32 random bytes made by the caller
	Name     string
	OpensAt  time.Time
	ClosesAt time.Time     // zero: OpensAt + DefaultOnSaleLength
	PassTTL  time.Duration // zero: DefaultPassTTL
	Rate     int
	MovieID  string
	ShowIDs  []string
}

// MaxOnSaleShows is the most shows one on-sale covers: its creation is one
// step that claims and opens each, and must fit in one transaction.
const MaxOnSaleShows = 500

// ValidateOnSale checks r before any store sees it and fills in its
// defaults.
func ValidateOnSale(r OnSaleRequest) (OnSaleRequest, error) {
	var f fields
	f.text("name", "The name", r.Name, 120)
	if r.OpensAt.IsZero() {
		f.add("opens_at", "Give the opening time.")
	}
	if r.ClosesAt.IsZero() && !r.OpensAt.IsZero() {
		r.ClosesAt = r.OpensAt.Add(DefaultOnSaleLength)
	}
	switch {
	case !storableTime(r.OpensAt):
		f.add("opens_at", "The opening time is too far off.")
	case !storableTime(r.ClosesAt):
		f.add("closes_at", "The closing time is too far off.")
	case !r.OpensAt.IsZero() && !r.ClosesAt.After(r.OpensAt):
		f.add("closes_at", "The closing time must be after the opening time.")
	}
	if r.PassTTL == 0 {
		r.PassTTL = DefaultPassTTL
	}
	if r.PassTTL < time.Minute || r.PassTTL > 24*time.Hour {
		f.add("pass_ttl", "The pass lifetime must be from 1m to 24h.")
	}
	if err := CheckRate(r.Rate); err != nil {
		f.add("rate", "%s", ErrorMessage(err))
	}
	switch {
	case r.MovieID == "" && len(r.ShowIDs) == 0:
		f.add("show", "Choose a movie or the shows it covers.")
	case r.MovieID != "" && len(r.ShowIDs) > 0:
		f.add("show", "Choose a movie or shows, not both.")
	case len(r.ShowIDs) > MaxOnSaleShows:
		f.add("show", "An on-sale covers at most %d shows.", MaxOnSaleShows)
	}
	if r.ID == "" || len(r.Key) < 16 {
		f.add("name", "An on-sale needs an id and a key.")
	}
	return r, f.err()
}

// storableTime reports whether t survives the stores, which keep times as
// Unix nanoseconds in an int64 (from 1678 to 2262): one outside would come
// back as another time (an opening in 2300 as one in the past, an
// extension to 9999 as a close long ago).
func storableTime(t time.Time) bool {
	return t.IsZero() || time.Unix(0, t.UnixNano()).Equal(t)
}

// CheckRate refuses an admission rate that is not a positive number of
// visitors a minute.
func CheckRate(rate int) error {
	if rate <= 0 || rate > MaxAdmissionRate {
		return Errorf(EINVALID, "The rate must be from 1 to %d visitors a minute.", MaxAdmissionRate)
	}
	return nil
}

// ErrOnSaleNotFound is an unknown on-sale.
var ErrOnSaleNotFound = &Error{Code: ENOTFOUND, Message: "There is no such on-sale."}

// ErrOnSaleClosed is a change to an on-sale that has closed.
var ErrOnSaleClosed = &Error{Code: ECONFLICT, Message: "This on-sale has closed."}

// ErrQueueClosed is a join after the on-sale closed.
var ErrQueueClosed = &Error{Code: EGONE, Key: "queue_closed", Message: "This on-sale has closed: its queue takes no one now."}
