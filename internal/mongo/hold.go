package mongo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// holdDoc is a hold. PaymentID is set by the first StartPayment, so that two
// concurrent Pay presses write the same document and one of them retries and
// finds the other's payment.
type holdDoc struct {
	ID        string   `bson:"_id"`
	ShowID    string   `bson:"show_id"`
	Owner     string   `bson:"owner"`
	SeatIDs   []string `bson:"seat_ids"`
	Amount    int64    `bson:"amount"`
	Currency  string   `bson:"currency"`
	CreatedAt int64    `bson:"created_at"` // Unix ns, equal to its seats' locked_at
	State     string   `bson:"state"`
	PaymentID string   `bson:"payment_id"`
	Address   string   `bson:"address,omitempty"` // the client address, for HOLD_SEATS_PER_ADDRESS
	// Extensions counts "More time"; absent in older documents: 0.
	Extensions int `bson:"extensions"`
}

func toHoldDoc(h booking.Hold) holdDoc {
	return holdDoc{
		ID: h.ID, ShowID: h.ShowID, Owner: h.Owner, SeatIDs: h.SeatIDs,
		Amount: int64(h.Amount), Currency: h.Currency, CreatedAt: nanos(h.CreatedAt),
		State: string(h.State), Address: h.Address, Extensions: h.Extensions,
	}
}

func (d holdDoc) hold() booking.Hold {
	return booking.Hold{
		ID: d.ID, ShowID: d.ShowID, Owner: d.Owner, SeatIDs: d.SeatIDs,
		Amount: booking.Money(d.Amount), Currency: d.Currency,
		CreatedAt: fromNanos(d.CreatedAt), State: booking.HoldState(d.State), Address: d.Address,
		Extensions: d.Extensions,
	}
}

func byID(id string) bson.D { return bson.D{{Key: "_id", Value: id}} }

func activeHoldFilter(showID, owner string) bson.D {
	return bson.D{
		{Key: "show_id", Value: showID},
		{Key: "owner", Value: owner},
		{Key: "state", Value: string(booking.HoldActive)},
	}
}

// Hold returns a hold by id, whoever owns it.
func (s *Store) Hold(ctx context.Context, holdID string) (booking.Hold, error) {
	d, err := findHold(ctx, s.col(colHolds), byID(holdID))
	if err != nil {
		return booking.Hold{}, notFound(err, booking.ErrHoldNotFound, "hold")
	}
	return d.hold(), nil
}

// ActiveHold returns owner's active hold for a show, possibly expired.
func (s *Store) ActiveHold(ctx context.Context, showID, owner string) (booking.Hold, error) {
	d, err := findHold(ctx, s.col(colHolds), activeHoldFilter(showID, owner))
	if err != nil {
		return booking.Hold{}, notFound(err, booking.ErrHoldNotFound, "active hold")
	}
	return d.hold(), nil
}

// findOwnHold reads a hold for its owner, inside the caller's transaction:
// ErrHoldNotFound, or ErrNotOwner for anyone else.
func (s *Store) findOwnHold(ctx context.Context, holdID, owner string) (booking.Hold, error) {
	d, err := findHold(ctx, s.col(colHolds), byID(holdID))
	if err != nil {
		return booking.Hold{}, noDoc(err, booking.ErrHoldNotFound, "read hold")
	}
	h := d.hold()
	return h, h.CheckOwner(owner)
}

func findHold(ctx context.Context, c *mongo.Collection, filter bson.D) (holdDoc, error) {
	var d holdDoc
	err := c.FindOne(ctx, filter).Decode(&d)
	return d, err
}

// errHoldRace says that another hold of the same session for the same show
// committed while this one ran: the show_owner_active index refused a second
// active hold. Running the step again sees that hold and replaces it, as if
// the two requests had come one after the other.
var errHoldRace = errors.New("a concurrent hold of the same session committed first")

// HoldSeats locks h.SeatIDs for hold h at m.Now, all or nothing, and replaces
// the owner's previous active hold for the show in the same transaction.
//
// Inside the transaction it reads the show, so that booking.Show.CheckOnSale
// refuses a hold once sales closed or the show was cancelled (also by
// another process), then the owner's previous hold and the requested seats
// (with their rows, for the gap rule), and lets booking.DecideHold decide,
// which gives the person an exact answer (which seats are taken, which do
// not exist, which one would be stranded). The decision is then enforced
// by the database: each seat is locked by a write that is conditional on
// the seat rule, and unless every requested seat matched, the transaction
// is aborted.
// A concurrent transaction that took one of the seats after this one's
// snapshot makes that write fail with WriteConflict, and the driver runs the
// whole step again against the new state, where CheckHoldable names the seat.
func (s *Store) HoldSeats(ctx context.Context, h booking.Hold, m booking.Moment) error {
	// Before any round trip, as every store does.
	if err := booking.CheckHoldRequest(h); err != nil {
		return err
	}
	// Sorted and each seat once (already checked; Compact stays as a
	// defence): the conditional write below must match exactly
	// len(h.SeatIDs) seats.
	h.SeatIDs = slices.Compact(booking.NormalizeSeatIDs(h.SeatIDs))
	// One deadline for every run: errHoldRace re-runs the step, a few times
	// at most and never past the step's time.
	ctx, cancel := context.WithTimeout(ctx, s.txTimeout)
	defer cancel()
	var err error
	for pass := 1; ; pass++ {
		_, err = inTx(ctx, s, func(ctx context.Context) (booking.Hold, error) {
			return s.holdSeats(ctx, h, m)
		})
		if !errors.Is(err, errHoldRace) || pass == holdRacePasses || !sleepCtx(ctx, time.Duration(pass)*holdRaceBackoff) {
			break
		}
	}
	if err != nil {
		return wrap("hold seats", err)
	}
	return nil
}

// holdSeats is one attempt of HoldSeats, run inside a transaction.
func (s *Store) holdSeats(ctx context.Context, h booking.Hold, m booking.Moment) (booking.Hold, error) {
	show, err := s.showOnSale(ctx, h.ShowID, m)
	if err != nil {
		return booking.Hold{}, err
	}
	var previous booking.PreviousHold
	prev, err := findHold(ctx, s.col(colHolds), activeHoldFilter(h.ShowID, h.Owner))
	switch {
	case err == nil && prev.ID == h.ID:
		// The same request again (a retry whose first try committed):
		// answer as the first time rather than replace h by itself.
		return prev.hold(), nil
	case err == nil:
		previous = booking.PreviousHold{ID: prev.ID, SeatIDs: prev.SeatIDs}
		if previous.Paying, err = s.paying(ctx, prev.ID); err != nil {
			return booking.Hold{}, err
		}
	case !errors.Is(err, mongo.ErrNoDocuments):
		return booking.Hold{}, fmt.Errorf("read previous hold: %w", err)
	}
	prevID := previous.ID

	seats := s.col(colSeats)
	found, err := s.holdSeatsRead(ctx, h, m)
	if err != nil {
		return booking.Hold{}, err
	}
	amount, err := booking.DecideHold(h, found, previous, m)
	if err != nil {
		return booking.Hold{}, err
	}

	res, err := seats.UpdateMany(ctx,
		bson.D{
			{Key: "show_id", Value: h.ShowID},
			{Key: "seat_id", Value: bson.D{{Key: "$in", Value: h.SeatIDs}}},
			seatRule(m, prevID),
		},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: "status", Value: string(booking.SeatLocked)},
			{Key: "hold_id", Value: h.ID},
			{Key: "locked_at", Value: nanos(m.Now)},
		}}})
	if err != nil {
		return booking.Hold{}, fmt.Errorf("lock seats: %w", err)
	}
	if res.MatchedCount != int64(len(h.SeatIDs)) {
		// The read above and this write see the same snapshot, so this is
		// the query and booking.SeatIsAvailable disagreeing: a bug, never
		// a person's conflict. Returning an error aborts the transaction.
		return booking.Hold{}, fmt.Errorf("seat rule filter matched %d of %d seats that booking.DecideHold found holdable",
			res.MatchedCount, len(h.SeatIDs))
	}

	if prevID != "" {
		// The previous hold's seats that h took again are now locked by
		// h; the rest go back.
		if _, err := seats.UpdateMany(ctx, lockedBy(h.ShowID, prevID), releaseUpdate); err != nil {
			return booking.Hold{}, fmt.Errorf("release previous hold: %w", err)
		}
		if _, err := s.col(colHolds).UpdateOne(ctx, byID(prevID), setState(booking.HoldReplaced)); err != nil {
			return booking.Hold{}, fmt.Errorf("replace previous hold: %w", err)
		}
	}

	h.Amount = amount
	h.Currency = show.Currency
	h.CreatedAt = m.Now
	h.State = booking.HoldActive
	if _, err := s.col(colHolds).InsertOne(ctx, toHoldDoc(h)); err != nil {
		if isActiveHoldConflict(err) {
			return booking.Hold{}, errHoldRace
		}
		if mongo.IsDuplicateKeyError(err) {
			// Another hold has this id: the caller reused an id, which
			// running the step again would not change.
			return booking.Hold{}, fmt.Errorf("insert hold: hold id %s is already used: %w", h.ID, err)
		}
		return booking.Hold{}, fmt.Errorf("insert hold: %w", err)
	}
	if err := s.checkHeldPerAddress(ctx, h, m); err != nil {
		return booking.Hold{}, err
	}
	return h, nil
}

// paying reports, inside the caller's transaction, whether hold holdID has
// a payment pending whose checkout may still take the money
// (booking.PreviousHold.Paying). A Pay that commits after this read
// writes the hold's document, as replacing the hold does, so the two
// conflict and the hold runs again and sees the payment.
func (s *Store) paying(ctx context.Context, holdID string) (bool, error) {
	var p paymentDoc
	err := s.col(colPayments).FindOne(ctx, bson.D{
		{Key: "hold_id", Value: holdID},
		{Key: "state", Value: string(booking.PaymentPending)},
	}, options.FindOne().SetProjection(bson.D{{Key: "checkout_closed_at", Value: 1}})).Decode(&p)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read previous hold's payment: %w", err)
	}
	return p.CheckoutClosedAt == 0, nil
}

// checkHeldPerAddress counts, inside the hold's transaction and after its
// writes, the seats of the show locked live by holds from the hold's
// address, and lets booking.CheckHeldPerAddress decide. Two holds from one
// address into one show at once would each count from their own snapshot
// and could both pass; each first writes the address's guard document, so
// they conflict and the retried one counts the other.
func (s *Store) checkHeldPerAddress(ctx context.Context, h booking.Hold, m booking.Moment) error {
	if m.SeatsPerAddress <= 0 || h.Address == "" {
		return nil
	}
	if err := s.guard(ctx, h.ShowID+"/"+h.Address, m.Now); err != nil {
		return fmt.Errorf("guard address: %w", err)
	}
	cut := nanos(m.LapsedBefore())
	cur, err := s.col(colHolds).Find(ctx, bson.D{
		{Key: "show_id", Value: h.ShowID}, {Key: "address", Value: h.Address},
		{Key: "created_at", Value: bson.D{{Key: "$gt", Value: cut}}},
		{Key: "state", Value: string(booking.HoldActive)},
	}, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return fmt.Errorf("read the address's holds: %w", err)
	}
	var ids []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &ids); err != nil {
		return fmt.Errorf("read the address's holds: %w", err)
	}
	holdIDs := make(bson.A, 0, len(ids))
	for _, d := range ids {
		holdIDs = append(holdIDs, d.ID)
	}
	cur, err = s.col(colSeats).Find(ctx, bson.D{
		{Key: "show_id", Value: h.ShowID},
		{Key: "hold_id", Value: bson.D{{Key: "$in", Value: holdIDs}}},
		{Key: "status", Value: string(booking.SeatLocked)},
		{Key: "locked_at", Value: bson.D{{Key: "$gt", Value: cut}}},
	}, options.Find().SetProjection(bson.D{{Key: "locked_at", Value: 1}}))
	if err != nil {
		return fmt.Errorf("count the address's seats: %w", err)
	}
	var locks []struct {
		LockedAt int64 `bson:"locked_at"`
	}
	if err := cur.All(ctx, &locks); err != nil {
		return fmt.Errorf("count the address's seats: %w", err)
	}
	oldest := int64(0)
	for _, l := range locks {
		if oldest == 0 || l.LockedAt < oldest {
			oldest = l.LockedAt
		}
	}
	return booking.CheckHeldPerAddress(len(locks), fromNanos(oldest), m)
}

// holdRacePasses is how many times HoldSeats runs its transaction when it
// keeps losing the race on show_owner_active; holdRaceBackoff, times the
// pass, is the pause before the next. One more pass normally suffices: it
// sees the winner as the previous hold and replaces it.
const (
	holdRacePasses  = 3
	holdRaceBackoff = 10 * time.Millisecond
)

// sleepCtx waits d, or less when ctx ends first; it reports whether ctx is
// still live.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// isActiveHoldConflict reports whether err is a duplicate key on the
// show_owner_active index (a second active hold of one session for one
// show), as opposed to any other unique key, such as a reused hold _id. It
// reads the keyPattern the server reports with each duplicate-key write
// error rather than the message text; for a server that does not report
// it, the index name in the message is the fallback.
func isActiveHoldConflict(err error) bool {
	var we mongo.WriteException
	if !errors.As(err, &we) {
		return false
	}
	for _, e := range we.WriteErrors {
		if !mongo.IsDuplicateKeyError(e) {
			continue
		}
		if kp, lerr := e.Raw.LookupErr("keyPattern"); lerr == nil {
			if doc, ok := kp.DocumentOK(); ok {
				if _, oerr := doc.LookupErr("owner"); oerr == nil {
					return true
				}
			}
			continue
		}
		if strings.Contains(e.Message, "show_owner_active") {
			return true
		}
	}
	return false
}

func setState(state booking.HoldState) bson.D {
	return bson.D{{Key: "$set", Value: bson.D{{Key: "state", Value: string(state)}}}}
}

// ReleaseHold is Back: the seats the hold still locks go back to available
// and an active hold becomes released (booking.HoldStateAfter, as for a
// declined payment). Releasing again changes nothing.
func (s *Store) ReleaseHold(ctx context.Context, holdID, owner string) (booking.Hold, error) {
	h, err := inTx(ctx, s, func(ctx context.Context) (booking.Hold, error) {
		h, err := s.findOwnHold(ctx, holdID, owner)
		if err != nil {
			return booking.Hold{}, err
		}
		if err := s.releaseSeats(ctx, h); err != nil {
			return booking.Hold{}, err
		}
		return s.moveHold(ctx, h, booking.HoldStateAfter(h, booking.EffectReleased))
	})
	if err != nil {
		return booking.Hold{}, wrap("release hold", err)
	}
	return h, nil
}

// releaseSeats frees the seats h still locks, inside the caller's
// transaction. Seats whose lock lapsed and that someone else took since are
// not h's any more and stay as they are.
func (s *Store) releaseSeats(ctx context.Context, h booking.Hold) error {
	if _, err := s.col(colSeats).UpdateMany(ctx, lockedBy(h.ShowID, h.ID), releaseUpdate); err != nil {
		return fmt.Errorf("release seats: %w", err)
	}
	return nil
}

// moveHold writes h's new state when it changes, inside the caller's
// transaction, and returns h as it now is.
func (s *Store) moveHold(ctx context.Context, h booking.Hold, state booking.HoldState) (booking.Hold, error) {
	if state == h.State {
		return h, nil
	}
	if _, err := s.col(colHolds).UpdateOne(ctx, byID(h.ID), setState(state)); err != nil {
		return booking.Hold{}, fmt.Errorf("update hold: %w", err)
	}
	h.State = state
	return h, nil
}
