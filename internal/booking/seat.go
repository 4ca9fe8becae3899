package booking

import (
	"cmp"
	"slices"
	"time"
)

// SeatStatus is what the store records about a seat. A locked seat may
// already count as available again: see Seat.AvailableAt.
type SeatStatus string

const (
	SeatAvailable SeatStatus = "available"
	SeatLocked    SeatStatus = "locked"
	SeatBooked    SeatStatus = "booked"
)

// SeatKind marks seats that need a symbol of their own on the map.
type SeatKind string

const (
	KindStandard   SeatKind = "standard"
	KindWheelchair SeatKind = "wheelchair"
	KindCompanion  SeatKind = "companion"
)

// Seat is one seat of one show: its place on the map, its price, and the
// state the store last wrote. LockedAt and HoldID are set while locked.
type Seat struct {
	ShowID    string
	ID        string // "F12": row label and number
	Row       string // "F"
	Number    int    // 12
	GridRow   int    // 0-based line on the map, from the screen
	GridCol   int    // 0-based column; gaps between columns are aisles
	Category  string // "Prime"
	Price     Money
	Kind      SeatKind
	Status    SeatStatus
	LockedAt  time.Time
	HoldID    string
	BookingID string
	// Reserve is what an admin kept the seat for (SPEC §16), stored beside
	// its status: the seat rule does not read it, "available online" does.
	Reserve SeatReserve
}

// SeatReserve is what a seat is kept for, whatever its status: nothing
// (on sale online), the counter (house), or nobody (blocked).
type SeatReserve string

const (
	ReserveNone    SeatReserve = ""
	ReserveHouse   SeatReserve = "house"
	ReserveBlocked SeatReserve = "blocked"
)

// ParseReserve reads a reserve as an admin's form names it: house,
// blocked, or none (release to online sale).
func ParseReserve(s string) (SeatReserve, error) {
	switch s {
	case "house":
		return ReserveHouse, nil
	case "blocked":
		return ReserveBlocked, nil
	case "none":
		return ReserveNone, nil
	}
	return "", Errorf(EINVALID, "A seat's reserve is house, blocked or none, not %q.", Truncate(s, 20))
}

// HoldableBy reports whether a seat kept as r may be held: online only
// without a reserve; at the counter (counter true) also a house seat. A
// blocked seat is never held.
func (r SeatReserve) HoldableBy(counter bool) bool {
	return r == ReserveNone || counter && r == ReserveHouse
}

// Rules are the service's booking rules: HOLD_TTL, SALES_CLOSE,
// HOLD_SEATS_PER_ADDRESS and SEAT_GAPS. The seat rule, the sales window and
// the hold steps apply them, and every store must apply them with the same
// values the domain does, so they travel with each operation.
type Rules struct {
	// TTL is HOLD_TTL: how long a lock protects its seat.
	TTL time.Duration
	// SalesClose is when sales of a show close, relative to its start:
	// 0 at the start, -30m half an hour before, 10m ten minutes after.
	SalesClose time.Duration
	// SeatsPerAddress caps the seats of a show held live at once from one
	// client address (CheckHeldPerAddress); 0 is no cap.
	SeatsPerAddress int
	// AllowGaps turns off the single-gap rule (SEAT_GAPS=allow): by
	// default a hold may not leave a seat alone (CheckGaps).
	AllowGaps bool
	// BoxOfficeClose is when the box office stops selling a show,
	// relative to its start (BOXOFFICE_CLOSE): at least SalesClose.
	BoxOfficeClose time.Duration
}

// At is the moment now under r.
func (r Rules) At(now time.Time) Moment { return Moment{Now: now, Rules: r} }

// Moment is the instant an operation happens under the rules in force: the
// seat rule and the sales window decide with both. An atomic step takes
// Rules and makes its Moment from its transaction's instant.
type Moment struct {
	Now time.Time
	Rules
}

// LapsedBefore is the cutoff of the seat rule: a lock taken at or before it
// no longer protects its seat. Stores compare locked_at <= LapsedBefore().
func (m Moment) LapsedBefore() time.Time { return m.Now.Add(-m.TTL) }

// LockLapsed reports whether a lock taken at lockedAt has stopped protecting
// its seat at m. It is the time half of the seat rule.
func LockLapsed(lockedAt time.Time, m Moment) bool {
	return !lockedAt.After(m.LapsedBefore())
}

// SeatIsAvailable is the seat rule of SPEC §1, the one written in Go: a seat is
// available when its status says so, or when it is locked and the lock is at
// least TTL old. Nothing rewrites a lapsed lock; every reader decides by this.
func SeatIsAvailable(status SeatStatus, lockedAt time.Time, m Moment) bool {
	switch status {
	case SeatAvailable:
		return true
	case SeatLocked:
		return LockLapsed(lockedAt, m)
	default:
		return false
	}
}

// AvailableAt applies the seat rule to s.
func (s Seat) AvailableAt(m Moment) bool { return SeatIsAvailable(s.Status, s.LockedAt, m) }

// SeatIsAvailableOnline is "available online" of SPEC §1, the one written
// in Go: available by the seat rule and without a reserve. Each store
// expresses it in its queries too (seatOnline in SQLite, onlineRule in
// MongoDB), and the conformance suite proves they agree.
func SeatIsAvailableOnline(status SeatStatus, lockedAt time.Time, reserve SeatReserve, m Moment) bool {
	return reserve == ReserveNone && SeatIsAvailable(status, lockedAt, m)
}

// AvailableOnlineAt applies "available online" to s.
func (s Seat) AvailableOnlineAt(m Moment) bool {
	return SeatIsAvailableOnline(s.Status, s.LockedAt, s.Reserve, m)
}

// CountAvailableOnline counts the seats available online at m.
func CountAvailableOnline(seats []Seat, m Moment) int {
	n := 0
	for _, s := range seats {
		if s.AvailableOnlineAt(m) {
			n++
		}
	}
	return n
}

// LockedBy reports whether s is still locked by hold holdID, whatever the age
// of the lock.
func (s Seat) LockedBy(holdID string) bool {
	return holdID != "" && s.Status == SeatLocked && s.HoldID == holdID
}

// HeldAt reports whether s is locked by a lock that still protects it at m.
func (s Seat) HeldAt(m Moment) bool { return s.Status == SeatLocked && !LockLapsed(s.LockedAt, m) }

// LockExpiresAt is when the lock on s stops protecting it.
func (s Seat) LockExpiresAt(ttl time.Duration) time.Time { return s.LockedAt.Add(ttl) }

// SeatState is how a seat looks to one viewer: SPEC §5's data-state.
type SeatState string

const (
	StateAvailable SeatState = "available"
	StateHeld      SeatState = "held"
	StateBooked    SeatState = "booked"
	StateMine      SeatState = "mine"
	// StateUnavailable is a seat with a reserve, not booked: online it
	// cannot be had, and it has no expiry to wait for.
	StateUnavailable SeatState = "unavailable"
)

// StateFor is the state of s as shown online to a viewer whose active hold
// for the show is myHoldID (empty when none): a seat with a reserve that is
// not booked is unavailable.
func (s Seat) StateFor(myHoldID string, m Moment) SeatState {
	switch {
	case s.Status == SeatBooked:
		return StateBooked
	case s.Reserve != ReserveNone:
		return StateUnavailable
	case s.AvailableAt(m):
		return StateAvailable
	case s.LockedBy(myHoldID):
		return StateMine
	default:
		return StateHeld
	}
}

// ValidSeatID reports whether id looks like a seat id: one or two row
// letters and a number from 1 to 999 (^[A-Z]{1,2}[1-9][0-9]{0,2}$).
func ValidSeatID(id string) bool {
	_, _, ok := parseSeatID(id)
	return ok
}

// parseSeatID splits a valid seat id into its row letters and number. It
// is a hand-written matcher rather than a regexp because every hold runs
// it for each seat, and once per comparison when sorting them.
func parseSeatID(id string) (row string, number int, ok bool) {
	letters := 0
	for letters < len(id) && letters < 3 && 'A' <= id[letters] && id[letters] <= 'Z' {
		letters++
	}
	digits := id[letters:]
	if letters == 0 || letters > 2 || len(digits) == 0 || len(digits) > 3 || digits[0] == '0' {
		return "", 0, false
	}
	for i := range len(digits) {
		c := digits[i]
		if c < '0' || c > '9' {
			return "", 0, false
		}
		number = number*10 + int(c-'0')
	}
	return id[:letters], number, true
}

// SortSeatIDs sorts ids the way a person reads them: by row, then by number
// (A2 before A10).
func SortSeatIDs(ids []string) {
	slices.SortFunc(ids, CompareSeatIDs)
}

// CompareSeatIDs orders seat ids by row letters, then numerically.
func CompareSeatIDs(a, b string) int {
	ra, na := splitSeatID(a)
	rb, nb := splitSeatID(b)
	if c := cmp.Compare(len(ra), len(rb)); c != 0 {
		return c
	}
	if c := cmp.Compare(ra, rb); c != 0 {
		return c
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

func splitSeatID(id string) (string, int) {
	row, n, ok := parseSeatID(id)
	if !ok {
		return id, 0
	}
	return row, n
}

// Clock is a clock that always reads m.Now: a step run with it decides at
// the moment the caller chose (tests, replays).
func (m Moment) Clock() func() time.Time { return func() time.Time { return m.Now } }
