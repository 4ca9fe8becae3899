package booking

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// HoldState is where a hold is in its lifecycle. An active hold may still have
// expired: that is decided by time, like the seat rule, never written.
type HoldState string

const (
	HoldActive    HoldState = "active"
	HoldReleased  HoldState = "released"  // Back pressed, or the payment failed
	HoldReplaced  HoldState = "replaced"  // the session held other seats of the show
	HoldCompleted HoldState = "completed" // a payment succeeded: booked or refund due
)

// Hold is a session's claim on some seats of one show while it pays.
type Hold struct {
	ID        string
	ShowID    string
	Owner     string // the visitor that made it
	SeatIDs   []string
	Amount    Money
	Currency  string
	CreatedAt time.Time // equal to the lockedAt of its seats
	State     HoldState
	// Address is the client address the hold came from, as the
	// per-address limits count it (an IPv6 /64); "" for none, which no
	// cap counts.
	Address string
	// Extensions counts the times the hold was given more time
	// (Hold.Extend); CreatedAt is then the last of them.
	Extensions int
	// Counter says the hold is made at the box office (SPEC §16): by a
	// staff member's session, under the counter's rules (Moment.AtCounter,
	// Show.CheckAtCounter), and sold by SellAtCounterStep only. It may
	// take house seats, and the online cut-off does not apply. Online
	// holds leave it false.
	Counter bool
}

// ExpiresAt is when the hold's locks stop protecting its seats.
func (h Hold) ExpiresAt(ttl time.Duration) time.Time { return h.CreatedAt.Add(ttl) }

// ExpiredAt reports whether the hold's locks have lapsed at m.
func (h Hold) ExpiredAt(m Moment) bool { return LockLapsed(h.CreatedAt, m) }

// CheckPayable says whether a payment may start for h at m: only an active,
// unexpired hold can be paid for.
func (h Hold) CheckPayable(m Moment) error {
	if err := h.CheckStanding(); err != nil {
		return err
	}
	if h.ExpiredAt(m) {
		return ErrHoldExpired
	}
	return nil
}

// CheckStanding refuses a hold that was released, replaced or paid for,
// whatever its time: CheckPayable without the clock.
func (h Hold) CheckStanding() error {
	switch h.State {
	case HoldReleased:
		return ErrHoldReleased
	case HoldReplaced:
		return ErrHoldReplaced
	case HoldCompleted:
		return ErrHoldCompleted
	}
	return nil
}

// CheckOwner hides h from anyone but its owner.
func (h Hold) CheckOwner(owner string) error {
	if owner == "" || h.Owner != owner {
		return ErrNotOwner
	}
	return nil
}

// ValidateSeatRequest checks a hold request before any store sees it: 1 to
// maxSeats distinct, well-formed seat ids.
func ValidateSeatRequest(seatIDs []string, maxSeats int) error {
	if len(seatIDs) == 0 {
		return Keyed(EINVALID, "no_seat", "Choose at least one seat.")
	}
	if len(seatIDs) > maxSeats {
		return Keyed(EINVALID, "too_many_seats", fmt.Sprintf("You can hold at most %d seats at a time; you chose %d.", maxSeats, len(seatIDs)),
			"Max", maxSeats, "Count", len(seatIDs))
	}
	seen := make(map[string]bool, len(seatIDs))
	for _, id := range seatIDs {
		if !ValidSeatID(id) {
			q := fmt.Sprintf("%q", Truncate(id, 12))
			return Keyed(EINVALID, "not_a_seat", q+" is not a seat.", "Seat", q)
		}
		if seen[id] {
			return Keyed(EINVALID, "seat_twice", fmt.Sprintf("Seat %s was chosen twice.", id), "Seat", id)
		}
		seen[id] = true
	}
	return nil
}

// CheckHoldRequest is what a store checks of a hold before any I/O: 1 or
// more distinct, well-formed seats (the seat count limit is the Service's),
// an id, and an owner, without which the hold could never be released or
// paid.
func CheckHoldRequest(h Hold) error {
	if err := ValidateSeatRequest(h.SeatIDs, len(h.SeatIDs)); err != nil {
		return err
	}
	if h.ID == "" || h.Owner == "" {
		return Errorf(EINVALID, "A hold needs an id and an owner.")
	}
	return nil
}

// PreviousHold is what a hold step reads of the session's previous hold
// for the show (SPEC §2): its most recent hold of that show still active,
// whatever its seats are now.
type PreviousHold struct {
	ID      string   // "" when the session has none
	SeatIDs []string // as the hold was made
	// Paying says that a payment for it is pending: the moviegoer pressed
	// Pay and the provider has not answered yet.
	Paying bool
}

// ids is the previous hold's id as a list, for the seat checks.
func (p PreviousHold) ids() []string {
	if p.ID == "" {
		return nil
	}
	return []string{p.ID}
}

// PayingError refuses a new hold of a show while the session's previous
// hold for it has a pending payment: replacing that hold would take its
// seats from the payment, which would then end refund_due. The moviegoer
// finishes paying, or goes Back (which stays possible) first.
type PayingError struct {
	HoldID string
	Seats  []string
}

func (e *PayingError) Error() string {
	return fmt.Sprintf("You are paying for %s: finish, or go Back first.", strings.Join(e.Seats, ", "))
}

// Unwrap makes a PayingError an ECONFLICT *Error for ErrorCode and
// ErrorMessage.
func (e *PayingError) Unwrap() error { return &Error{Code: ECONFLICT, Message: e.Error()} }

// DecideHold is the one decision of a hold (SPEC §2, §13), taken inside the
// store's step on the seats as the step reads them, before it writes
// anything. seats holds h's requested seats and, unless m.AllowGaps, every
// other seat of the rows they are in. previous is h.Owner's previous hold
// for the show (PreviousHold; ID "" for none): its seats count as
// available to h, for the seat rule and the gap rule alike. It returns the
// hold's amount, or why it cannot be held, in the order a person is told:
// a payment of the previous hold still pending (*PayingError), seats the
// show lacks (EINVALID), seats taken (*UnavailableError), then a seat the
// hold would leave alone (*GapError). The store then writes what was
// decided: h's seats locked, the previous hold's others freed and the
// previous hold replaced.
func DecideHold(h Hold, seats []Seat, previous PreviousHold, m Moment) (Money, error) {
	if previous.ID != "" && previous.Paying {
		return 0, &PayingError{HoldID: previous.ID, Seats: NormalizeSeatIDs(previous.SeatIDs)}
	}
	prev := previous.ids()
	if err := checkHoldable(h.SeatIDs, seats, prev, m, h.Counter); err != nil {
		return 0, err
	}
	if !m.AllowGaps {
		free := func(s Seat) bool { return freeFor(s, prev, m, h.Counter) }
		if err := CheckGaps(seats, h.SeatIDs, free); err != nil {
			return 0, err
		}
	}
	held := make([]Seat, 0, len(h.SeatIDs))
	for _, s := range seats {
		if slices.Contains(h.SeatIDs, s.ID) {
			held = append(held, s)
		}
	}
	return SumPrices(held), nil
}

// CheckHoldable decides an online hold request against the current state
// of the requested seats: found holds the seats the store found (in any
// order), previous are the session's previous holds for the show, whose
// seats count as available to it. A seat with a reserve is taken. It
// returns an EINVALID error for seats the show does not have, an
// *UnavailableError naming every seat that is taken, or nil.
func CheckHoldable(requested []string, found []Seat, previous []string, m Moment) error {
	return checkHoldable(requested, found, previous, m, false)
}

// freeFor reports whether a hold may take s at m: free by the seat rule
// or locked by one of previous (the session's previous hold), and kept
// for nobody but the hold's sale (SeatReserve.HoldableBy; counter: the
// box office's hold).
func freeFor(s Seat, previous []string, m Moment, counter bool) bool {
	return s.Reserve.HoldableBy(counter) && (s.AvailableAt(m) || lockedByAny(s, previous))
}

// checkHoldable is CheckHoldable for an online hold or, counter true, the
// box office's, which may take house seats.
func checkHoldable(requested []string, found []Seat, previous []string, m Moment, counter bool) error {
	byID := make(map[string]Seat, len(found))
	for _, s := range found {
		byID[s.ID] = s
	}
	var unknown, taken []string
	for _, id := range requested {
		s, ok := byID[id]
		switch {
		case !ok:
			unknown = append(unknown, id)
		case freeFor(s, previous, m, counter):
		default:
			taken = append(taken, id)
		}
	}
	if len(unknown) > 0 {
		SortSeatIDs(unknown)
		return Keyed(EINVALID, "no_such_seat", fmt.Sprintf("This show has no seat %s.", strings.Join(unknown, ", ")),
			"Seats", strings.Join(unknown, ", "))
	}
	if len(taken) > 0 {
		SortSeatIDs(taken)
		return &UnavailableError{Seats: taken}
	}
	return nil
}

// lockedByAny reports whether s is locked by one of holds.
func lockedByAny(s Seat, holds []string) bool {
	for _, h := range holds {
		if s.LockedBy(h) {
			return true
		}
	}
	return false
}

// SumPrices is the amount of a hold of these seats.
func SumPrices(seats []Seat) Money {
	var total Money
	for _, s := range seats {
		total += s.Price
	}
	return total
}

// NormalizeSeatIDs returns a sorted copy, so that holds list seats the way a
// person reads them.
func NormalizeSeatIDs(ids []string) []string {
	out := slices.Clone(ids)
	SortSeatIDs(out)
	return out
}

// Truncate is s cut to n runes, the cut marked with an ellipsis: what a
// message may echo of someone's input.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// HeldCapError refuses a hold that would leave more seats of a show held at
// once from one client address than the cap (HOLD_SEATS_PER_ADDRESS): one
// client with many sessions must not lock a hall.
type HeldCapError struct {
	Cap        int
	RetryAfter time.Duration // until the oldest of the address's live locks lapses
}

func (e *HeldCapError) Error() string {
	return fmt.Sprintf("At most %d seats of a show can be held at once from one address, and that many are held from yours. "+
		"Please finish or release a hold, or try again when one ends.", e.Cap)
}

// CheckHeldPerAddress says whether a hold may stand when, with it, held
// seats of its show are locked live by holds from its address, the oldest
// of them at oldest: no more than m.SeatsPerAddress (0: no cap).
func CheckHeldPerAddress(held int, oldest time.Time, m Moment) error {
	if m.SeatsPerAddress <= 0 || held <= m.SeatsPerAddress {
		return nil
	}
	return &HeldCapError{Cap: m.SeatsPerAddress, RetryAfter: max(oldest.Add(m.TTL).Sub(m.Now), time.Second)}
}

// MaxExtensions is how often a hold may get more time (WCAG 2.2.1: the
// moviegoer is warned before the time runs out and can ask for more; SPEC
// §13 caps it, so that seats are not held for ever).
const MaxExtensions = 2

// ErrExtendLimit refuses more time to a hold that has had it MaxExtensions
// times.
var ErrExtendLimit = &Error{Code: ECONFLICT, Key: "extend_limit", Message: "This hold has had more time twice already; please pay now, or choose your seats again when it ends."}

// Extend is h given more time at m: its locks are taken again at m.Now, so
// that it expires HOLD_TTL from now by the one seat rule. Only a live,
// active hold, on sale, with extensions left; stores call it inside the
// step that moves its seats' locked_at, after Show.CheckOnSale.
func (h Hold) Extend(m Moment) (Hold, error) {
	if err := h.CheckPayable(m); err != nil {
		return h, err
	}
	if h.Extensions >= MaxExtensions {
		return h, ErrExtendLimit
	}
	h.Extensions++
	h.CreatedAt = m.Now
	return h, nil
}
