package booking

import (
	"context"
	"fmt"
	"time"
)

// HoldTx is what the hold lifecycle's steps (HoldSeats, ReleaseHold,
// ExtendHold) read and write in a transaction.
type HoldTx interface {
	// SaleFacts is what a step needs of a show to sell its seats: its id,
	// start, cancellation and currency (the rest of Show is zero).
	SaleFacts(showID string) (Show, error)
	// Hold is a hold by id, whoever owns it.
	Hold(holdID string) (Hold, error)
	// ActiveHolds are owner's holds of the show still active, in no
	// particular order (SPEC §2 allows one; data from older versions may
	// have more).
	ActiveHolds(showID, owner string) ([]Hold, error)
	// PendingPayments are the hold's payments still pending.
	PendingPayments(holdID string) ([]Payment, error)
	// SeatsOf are the show's seats among ids, and with wholeRows every
	// other seat of their rows too, in no particular order; ids the show
	// does not have are left out.
	SeatsOf(showID string, ids []string, wholeRows bool) ([]Seat, error)
	// AllSeats are every seat of the show, in no particular order.
	AllSeats(showID string) ([]Seat, error)
	// LiveSeatsFrom counts the seats of the show locked after
	// lapsedBefore by active holds made from address after it, and the
	// oldest of those locks (zero when none): the seats held live from
	// the address by the seat rule.
	LiveSeatsFrom(showID, address string, lapsedBefore time.Time) (int, time.Time, error)

	// LockSeats locks the show's seats ids for hold holdID of owner at
	// at, whatever they were, and says how many it locked.
	LockSeats(showID string, ids []string, holdID, owner string, at time.Time) (int, error)
	// RelockSeats takes the locks of the seats h still locks again at at,
	// and says how many.
	RelockSeats(h Hold, at time.Time) (int, error)
	// FreeSeats sets the seats that h still locks back to available;
	// seats locked by another hold since, or booked, are left alone.
	FreeSeats(h Hold) error
	// InsertHold stores a new hold.
	InsertHold(h Hold) error
	// SetHoldState stores a hold's new state.
	SetHoldState(holdID string, state HoldState) error
	// SetHoldExtended stores h's CreatedAt and Extensions after More
	// time.
	SetHoldExtended(h Hold) error
}

// PreviousHoldIn reads the owner's previous hold for a show in a step
// (SPEC §2): its most recent hold of the show still active (by CreatedAt,
// then id), whatever its seats are now, being paid for while one of its
// payments is pending and its checkout may still take the money. It also
// returns every active hold of the owner for the show, the previous one
// among them.
func PreviousHoldIn(tx HoldTx, showID, owner string) (PreviousHold, []Hold, error) {
	active, err := tx.ActiveHolds(showID, owner)
	if err != nil || len(active) == 0 {
		return PreviousHold{}, nil, err
	}
	latest := active[latestHold(active)]
	payments, err := tx.PendingPayments(latest.ID)
	if err != nil {
		return PreviousHold{}, nil, err
	}
	prev := PreviousHold{ID: latest.ID, SeatIDs: latest.SeatIDs}
	for _, p := range payments {
		if p.State == PaymentPending && p.CheckoutClosedAt.IsZero() {
			prev.Paying = true
		}
	}
	return prev, active, nil
}

// latestHold is the index in active, not empty, of the most recent hold
// (by CreatedAt, then id).
func latestHold(active []Hold) int {
	latest := 0
	for i, h := range active[1:] {
		l := active[latest]
		if c := h.CreatedAt.Compare(l.CreatedAt); c > 0 || c == 0 && h.ID > l.ID {
			latest = i + 1
		}
	}
	return latest
}

// HoldStartReader is a Tx that reads what a hold step starts from in one
// go, where each read costs a statement of its own (SQLite). The step then
// decides as it does on SaleFacts, ActiveHolds and PendingPayments.
// HoldStart reads before the step's Serialize of the owner and show: only
// a store whose Serialize does nothing (whose step holds the write lock
// throughout) may offer it.
type HoldStartReader interface {
	// HoldStart is SaleFacts(showID) and ActiveHolds(showID, owner), with
	// paying[i] saying whether active[i] has a payment pending whose
	// checkout has not closed (PreviousHold.Paying).
	HoldStart(showID, owner string) (show Show, active []Hold, paying []bool, err error)
}

// HoldReader is a HoldStartReader that reads the seats a hold asks for
// with its start, in one statement where each read costs one (SQLite):
// HoldSeatsStep then decides as it does on HoldStart and SeatsOf. It reads
// the seats before the step's Serialize of the owner and show, and of the
// rows: only a store whose Serialize does nothing may offer it.
type HoldReader interface {
	HoldStartReader
	// HoldRead is HoldStart(showID, owner) and SeatsOf(showID, ids,
	// wholeRows), with of each active hold what a hold step uses: its ID,
	// ShowID, Owner, SeatIDs, CreatedAt and State.
	HoldRead(showID, owner string, ids []string, wholeRows bool) (show Show, active []Hold, paying []bool, seats []Seat, err error)
}

// HoldSeatsStep is the hold of SPEC §2, one atomic step: h.SeatIDs of
// h.ShowID are locked for h at the transaction's instant, all or nothing,
// replacing h.Owner's previous hold for the show, whose seats count as
// available to it, under rules at the transaction's instant. On a
// conflict nothing changes and the answer is an *UnavailableError naming
// exactly the seats that were not available.
//
// It reads, in order: the show's sale facts, the owner's previous hold
// (with its pending payments), the requested seats (with the rest of their
// rows unless single gaps are allowed), the first and the last in one go
// by a HoldReader; DecideHold decides; it writes the
// locks, frees the previous hold's other seats and marks it replaced,
// inserts the hold; then, with a cap per address, counts the address's
// live seats and CheckHeldPerAddress decides. Serialised on the owner and
// show (two holds of one session at once), on each row read for the gap
// rule, and on the address and show when capped.
//
// A counter hold (h.Counter, SPEC §16) is decided under the counter's
// rules: Show.CheckAtCounter instead of the sales window, and
// Moment.AtCounter (no cap per address, no single-gap rule).
func HoldSeatsStep(ctx context.Context, st Transactor, clock func() time.Time, h Hold, rules Rules) error {
	if err := CheckHoldRequest(h); err != nil {
		return err
	}
	h.SeatIDs = NormalizeSeatIDs(h.SeatIDs)
	return st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		if h.Counter {
			m = m.AtCounter()
		}
		b, seats, err := beginHoldSeats(tx, h, m)
		if err != nil || b.done {
			return err
		}
		if err := serializeRows(tx, h.ShowID, seats, m); err != nil {
			return err
		}
		return b.hold(tx, h, seats, m)
	})
}

// holdStart is what a hold step reads before it looks at seats: the show,
// and the owner's previous hold with every active hold of the owner for
// the show. done says that this very step committed already (its commit's
// answer was lost, and the step runs again): nothing is left to do.
type holdStart struct {
	show   Show
	prev   PreviousHold
	active []Hold
	done   bool
}

// beginHold reads a hold step's start: the show's sale facts (on sale at
// m, or open at the counter for a counter hold), then, serialised on the owner and show (two holds of one session at
// once may both find no previous hold), the owner's previous hold.
func beginHold(tx Tx, h Hold, m Moment) (holdStart, error) {
	if r, ok := tx.(HoldStartReader); ok {
		return beginHoldAtOnce(tx, r, h, m)
	}
	show, err := tx.SaleFacts(h.ShowID)
	if err != nil {
		return holdStart{}, err
	}
	if err := checkHoldSale(show, h, m); err != nil {
		return holdStart{}, err
	}
	if err := serializeCutoff(tx, show, h.Counter); err != nil {
		return holdStart{}, err
	}
	if err := tx.Serialize("owner:" + h.ShowID + ":" + h.Owner); err != nil {
		return holdStart{}, err
	}
	prev, active, err := PreviousHoldIn(tx, h.ShowID, h.Owner)
	if err != nil {
		return holdStart{}, err
	}
	return holdStart{show: show, prev: prev, active: active, done: prev.ID == h.ID}, nil
}

// beginHoldSeats is beginHold, then the seats h asks for (with the rest
// of their rows unless single gaps are allowed), both at once by a
// HoldReader.
func beginHoldSeats(tx Tx, h Hold, m Moment) (holdStart, []Seat, error) {
	r, ok := tx.(HoldReader)
	if !ok {
		b, err := beginHold(tx, h, m)
		if err != nil || b.done {
			return b, nil, err
		}
		seats, err := tx.SeatsOf(h.ShowID, h.SeatIDs, !m.AllowGaps)
		return b, seats, err
	}
	show, active, paying, seats, err := r.HoldRead(h.ShowID, h.Owner, h.SeatIDs, !m.AllowGaps)
	if err != nil {
		return holdStart{}, nil, err
	}
	b, err := startFrom(tx, h, m, show, active, paying)
	return b, seats, err
}

// beginHoldAtOnce is beginHold by a HoldStartReader.
func beginHoldAtOnce(tx Tx, r HoldStartReader, h Hold, m Moment) (holdStart, error) {
	show, active, paying, err := r.HoldStart(h.ShowID, h.Owner)
	if err != nil {
		return holdStart{}, err
	}
	return startFrom(tx, h, m, show, active, paying)
}

// startFrom is the rest of beginHold once a HoldStartReader has read the
// show and the owner's active holds.
func startFrom(tx Tx, h Hold, m Moment, show Show, active []Hold, paying []bool) (holdStart, error) {
	if err := checkHoldSale(show, h, m); err != nil {
		return holdStart{}, err
	}
	if err := serializeCutoff(tx, show, h.Counter); err != nil {
		return holdStart{}, err
	}
	if err := tx.Serialize("owner:" + h.ShowID + ":" + h.Owner); err != nil {
		return holdStart{}, err
	}
	var prev PreviousHold
	if len(active) > 0 {
		i := latestHold(active)
		prev = PreviousHold{ID: active[i].ID, SeatIDs: active[i].SeatIDs, Paying: paying[i]}
	}
	return holdStart{show: show, prev: prev, active: active, done: prev.ID == h.ID}, nil
}

// serializeRows makes the step conflict with any other that writes to
// the rows of seats, which the gap rule decides on (nothing to do when it
// is off).
func serializeRows(tx Tx, showID string, seats []Seat, m Moment) error {
	if m.AllowGaps {
		return nil
	}
	for _, row := range rowsOf(seats) {
		if err := tx.Serialize(fmt.Sprintf("row:%s:%d", showID, row)); err != nil {
			return err
		}
	}
	return nil
}

// hold decides h on seats (DecideHold) and writes it: the locks, the
// owner's active holds replaced and their other seats freed; an online
// hold of a show with a cut-off then counts the seats left available
// online (checkCutoffIn); the hold;
// then, with a cap per address, serialised on the address and show, it
// counts the address's live seats and CheckHeldPerAddress decides.
func (b holdStart) hold(tx Tx, h Hold, seats []Seat, m Moment) error {
	amount, err := DecideHold(h, seats, b.prev, m)
	if err != nil {
		return err
	}
	locked, err := tx.LockSeats(h.ShowID, h.SeatIDs, h.ID, h.Owner, m.Now)
	if err != nil {
		return err
	}
	if locked != len(h.SeatIDs) {
		return fmt.Errorf("hold %s locked %d of its %d seats, all of which were read", h.ID, locked, len(h.SeatIDs))
	}
	for _, old := range b.active {
		// The seats the new hold took over carry its id already; the
		// previous hold's others go back to available, and so do any an
		// older hold left active still locks. A new checkout of the old
		// hold's payment serialises with this (BeginCheckoutStep).
		if err := tx.Serialize("hold:" + old.ID); err != nil {
			return err
		}
		if err := tx.FreeSeats(old); err != nil {
			return err
		}
		if err := tx.SetHoldState(old.ID, HoldReplaced); err != nil {
			return err
		}
	}
	if err := checkCutoffIn(tx, b.show, h, m); err != nil {
		return err
	}
	h.Amount, h.Currency, h.CreatedAt, h.State = amount, b.show.Currency, m.Now, HoldActive
	if err := tx.InsertHold(h); err != nil {
		return err
	}
	if m.SeatsPerAddress <= 0 || h.Address == "" {
		return nil
	}
	if err := tx.Serialize("address:" + h.ShowID + ":" + h.Address); err != nil {
		return err
	}
	held, oldest, err := tx.LiveSeatsFrom(h.ShowID, h.Address, m.LapsedBefore())
	if err != nil {
		return err
	}
	return CheckHeldPerAddress(held, oldest, m)
}

// BestHoldStep is the one-step best hold of SPEC §18: inside one atomic
// step it reads every seat of the show as it is then, takes the first
// block in SPEC §13's order (BestBlock) among the seats free by the seat
// rule (the owner's previous hold's counting as free), and holds it as
// HoldSeatsStep does, replacing the previous hold. Two parties asking at
// once never get the same block: both write its seats, so one conflicts
// and runs again on the new state, where it takes the next block (in
// SQLite the step holds the write lock throughout). h has no seats yet;
// it returns h with the seats held. No block: ErrNoBlock (409); a category
// the show does not have: EINVALID.
func BestHoldStep(ctx context.Context, st Transactor, clock func() time.Time, h Hold, r BestRequest, rules Rules) (Hold, error) {
	if h.ID == "" || h.Owner == "" {
		return Hold{}, Errorf(EINVALID, "A hold needs an id and an owner.")
	}
	var out Hold
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		h := h
		b, err := beginHold(tx, h, m)
		if err != nil {
			return err
		}
		if b.done {
			out, err = tx.Hold(h.ID)
			return err
		}
		seats, err := tx.AllSeats(h.ShowID)
		if err != nil {
			return err
		}
		if err := CheckBestCategory(seats, r); err != nil {
			return err
		}
		prev := b.prev.ids()
		block, ok := BestBlock(seats, r, func(s Seat) bool { return freeFor(s, prev, m, h.Counter) })
		if !ok {
			return noBlockError(r)
		}
		h.SeatIDs = NormalizeSeatIDs(block.IDs())
		if err := serializeRows(tx, h.ShowID, block, m); err != nil {
			return err
		}
		// BestBlock applied the gap rule already, among the blocks of the
		// party's category and kind: it leaves a seat alone only when no
		// block of them does, which the rule allows. DecideHold's own
		// check would look for a choice outside them.
		decide := m
		decide.AllowGaps = true
		if err := b.hold(tx, h, seats, decide); err != nil {
			return err
		}
		out = h
		return nil
	})
	return out, err
}

// rowsOf lists the grid rows of seats, each once.
func rowsOf(seats []Seat) []int {
	var rows []int
	seen := map[int]bool{}
	for _, s := range seats {
		if !seen[s.GridRow] {
			seen[s.GridRow] = true
			rows = append(rows, s.GridRow)
		}
	}
	return rows
}

// ReleaseHoldStep is Back (SPEC §2), one atomic step: the seats the hold
// still locks go back to available and an active hold becomes released.
// Idempotent; ErrNotOwner for anyone but the owner.
func ReleaseHoldStep(ctx context.Context, st Transactor, clock func() time.Time, holdID, owner string) (Hold, error) {
	var out Hold
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		h, err := tx.Hold(holdID)
		if err != nil {
			return err
		}
		if err := h.CheckOwner(owner); err != nil {
			return err
		}
		if err := tx.FreeSeats(h); err != nil {
			return err
		}
		if h.State == HoldActive {
			h.State = HoldReleased
			if err := tx.SetHoldState(h.ID, h.State); err != nil {
				return err
			}
		}
		out = h
		return nil
	})
	return out, err
}

// ExtendHoldStep is More time (SPEC §13), one atomic step: after the show's
// sales window, Hold.Extend decides, and the hold's seats are locked again
// at the transaction's instant. Of two requests at once, each is counted
// (both write the hold).
func ExtendHoldStep(ctx context.Context, st Transactor, clock func() time.Time, holdID, owner string, rules Rules) (Hold, error) {
	var out Hold
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		h, err := ownHoldOnSale(tx, holdID, owner, m)
		if err != nil {
			return err
		}
		next, err := h.Extend(m)
		if err != nil {
			return err
		}
		if m.SeatsPerAddress > 0 && h.Address != "" {
			// The address's count (HoldSeatsStep) counts this hold's seats
			// as live or lapsed by its lock time, which this moves.
			if err := tx.Serialize("address:" + h.ShowID + ":" + h.Address); err != nil {
				return err
			}
		}
		n, err := tx.RelockSeats(h, next.CreatedAt)
		if err != nil {
			return err
		}
		switch {
		case n < len(h.SeatIDs):
			// A step that decided at a later instant (another process's
			// clock, or a MongoDB step run again at its first instant)
			// saw the lock lapse and took a seat: the hold has expired.
			return ErrHoldExpired
		case n > len(h.SeatIDs):
			return fmt.Errorf("hold %s locks %d seats, more than its %d", h.ID, n, len(h.SeatIDs))
		}
		if err := tx.SetHoldExtended(next); err != nil {
			return err
		}
		out = next
		return nil
	})
	return out, err
}
