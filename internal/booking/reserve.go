package booking

import (
	"context"
	"slices"
	"strings"
	"time"
)

// ReserveTx is what the reserve steps (ReserveSeatsStep,
// SetOnlineCutoffStep) write in a transaction.
type ReserveTx interface {
	// SetSeatReserve stores reserve on the show's seats ids, whatever
	// their status (ReserveNone: none).
	SetSeatReserve(showID string, ids []string, reserve SeatReserve) error
	// SetShowOnlineCutoff stores the show's online cut-off (0: none).
	SetShowOnlineCutoff(showID string, seats int) error
}

// ReserveConflictError refuses a reserve of seats that are booked, or
// locked by a hold that is live or being paid for (SPEC §16): nothing
// changed.
type ReserveConflictError struct {
	Seats []string
}

func (e *ReserveConflictError) Error() string {
	what := "Seat " + e.Seats[0] + " is"
	if len(e.Seats) > 1 {
		what = "Seats " + strings.Join(e.Seats, ", ") + " are"
	}
	return what + " sold, held or being paid for, so it cannot be reserved now. Nothing was changed."
}

// Unwrap makes a ReserveConflictError an ECONFLICT *Error.
func (e *ReserveConflictError) Unwrap() error { return &Error{Code: ECONFLICT, Message: e.Error()} }

// CheckReserveRequest checks the seats of a reserve before any store sees
// them: at least one, each a seat id. It returns them sorted, each once.
func CheckReserveRequest(ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, Errorf(EINVALID, "Choose at least one seat to reserve or release.")
	}
	for _, id := range ids {
		if !ValidSeatID(id) {
			return nil, Errorf(EINVALID, "%q is not a seat.", Truncate(id, 12))
		}
	}
	out := NormalizeSeatIDs(ids)
	return slices.Compact(out), nil
}

// DecideReserve decides a reserve of seats (the show's seats among those
// asked for, found, as a step reads them) at m: a booked seat, or one
// locked by a lock that still protects it or by a hold being paid for
// (paying, by hold id), is a conflict; the other locked seats are to be
// freed, returned. Releasing (ReserveNone) never conflicts and frees
// nothing.
func DecideReserve(seats []Seat, reserve SeatReserve, paying map[string]bool, m Moment) (free []string, err error) {
	if reserve == ReserveNone {
		return nil, nil
	}
	var conflicts []string
	for _, s := range seats {
		switch {
		case s.Status == SeatBooked, s.HeldAt(m), s.Status == SeatLocked && paying[s.HoldID]:
			conflicts = append(conflicts, s.ID)
		case s.Status == SeatLocked:
			free = append(free, s.ID)
		}
	}
	if len(conflicts) > 0 {
		SortSeatIDs(conflicts)
		return nil, &ReserveConflictError{Seats: conflicts}
	}
	SortSeatIDs(free)
	return free, nil
}

// ReserveSeatsStep marks seats ids of a show house or blocked, or releases
// them to online sale (ReserveNone), in one atomic step (SPEC §16): it
// reads the seats, and for each lapsed lock whether its hold is being paid
// for (serialised on that hold, as a checkout is); DecideReserve decides;
// the lapsed locks are freed and the reserve written. Unknown seats are
// EINVALID; a conflict is a *ReserveConflictError and changes nothing. A
// show with an online cut-off serialises on the show, as its holds do.
func ReserveSeatsStep(ctx context.Context, st Transactor, clock func() time.Time, showID string, ids []string, reserve SeatReserve, rules Rules) error {
	ids, err := CheckReserveRequest(ids)
	if err != nil {
		return err
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		show, err := tx.SaleFacts(showID)
		if err != nil {
			return err
		}
		if err := serializeCutoff(tx, show, false); err != nil {
			return err
		}
		seats, err := tx.SeatsOf(showID, ids, false)
		if err != nil {
			return err
		}
		if err := checkSeatsFound(ids, seats); err != nil {
			return err
		}
		paying := map[string]bool{}
		if reserve != ReserveNone {
			if paying, err = payingHolds(tx, seats, m); err != nil {
				return err
			}
		}
		free, err := DecideReserve(seats, reserve, paying, m)
		if err != nil {
			return err
		}
		if len(free) > 0 {
			if err := tx.FreeShowSeats(showID, free); err != nil {
				return err
			}
		}
		return tx.SetSeatReserve(showID, ids, reserve)
	})
}

// payingHolds reads, for each hold with a lapsed lock among seats, whether
// it is being paid for (PreviousHold.Paying's rule), serialised on the
// hold as BeginCheckoutStep is.
func payingHolds(tx Tx, seats []Seat, m Moment) (map[string]bool, error) {
	paying := map[string]bool{}
	var holds []string
	for _, s := range seats {
		if s.Status == SeatLocked && !s.HeldAt(m) && !slices.Contains(holds, s.HoldID) {
			holds = append(holds, s.HoldID)
		}
	}
	slices.Sort(holds)
	for _, id := range holds {
		if err := tx.Serialize("hold:" + id); err != nil {
			return nil, err
		}
		payments, err := tx.PendingPayments(id)
		if err != nil {
			return nil, err
		}
		for _, p := range payments {
			if p.State == PaymentPending && p.CheckoutClosedAt.IsZero() {
				paying[id] = true
			}
		}
	}
	return paying, nil
}

// checkSeatsFound is EINVALID naming the ids found lacks.
func checkSeatsFound(ids []string, found []Seat) error {
	var unknown []string
	for _, id := range ids {
		if !slices.ContainsFunc(found, func(s Seat) bool { return s.ID == id }) {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return Errorf(EINVALID, "This show has no seat %s.", strings.Join(unknown, ", "))
	}
	return nil
}

// ErrOnlineCutoff refuses an online hold that would leave fewer seats
// available online than the show's online cut-off (SPEC §16).
var ErrOnlineCutoff = &Error{Code: EGONE, Key: "online_cutoff", Message: "Online sales of this show have closed: its last seats are sold at the box office."}

// CheckOnlineCutoff says whether an online hold may leave available seats
// of the show available online: not fewer than its cut-off, when it has
// one.
func (s Show) CheckOnlineCutoff(available int) error {
	if s.OnlineCutoff > 0 && available < s.OnlineCutoff {
		return ErrOnlineCutoff
	}
	return nil
}

// OnlineClosedAt reports whether the show's online cut-off stops online
// sales with available seats available online: at most the cut-off.
func (s Show) OnlineClosedAt(available int) bool {
	return s.OnlineCutoff > 0 && available <= s.OnlineCutoff
}

// serializeCutoff makes the steps that change what is available online of
// a show with an online cut-off conflict, so that two holds cannot both
// pass its count (a MongoDB snapshot shows each the seats before the
// other). Counter holds, which the cut-off does not apply to, and shows
// without one do not.
func serializeCutoff(tx Tx, show Show, counter bool) error {
	if show.OnlineCutoff <= 0 || counter {
		return nil
	}
	return tx.Serialize("show:" + show.ID)
}

// checkCutoffIn applies the show's online cut-off to a hold that has just
// written its locks in tx: it reads the show's seats as they now are and
// counts those available online.
func checkCutoffIn(tx Tx, show Show, h Hold, m Moment) error {
	if show.OnlineCutoff <= 0 || h.Counter {
		return nil
	}
	seats, err := tx.AllSeats(h.ShowID)
	if err != nil {
		return err
	}
	return show.CheckOnlineCutoff(CountAvailableOnline(seats, m))
}

// SetOnlineCutoffStep sets a show's online cut-off (SPEC §16) to seats, 0
// turning it off; a negative number is EINVALID.
func SetOnlineCutoffStep(ctx context.Context, st Transactor, clock func() time.Time, showID string, seats int) error {
	if seats < 0 {
		return Errorf(EINVALID, "The online cut-off is a number of seats, 0 or more (0 turns it off).")
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		show, err := tx.SaleFacts(showID)
		if err != nil {
			return err
		}
		if err := tx.Serialize("show:" + show.ID); err != nil {
			return err
		}
		return tx.SetShowOnlineCutoff(showID, seats)
	})
}
