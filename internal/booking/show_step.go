package booking

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"time"
)

// CreateShowStep stores a new show with its seats, all available, in one
// atomic step: ErrShowDeleted when its id had a show that was deleted,
// ErrShowExists when it has one. Of two processes creating one show at
// once (the demo's ids are derived, not random), one creates it and the
// other gets ErrShowExists: both insert the show's record, so in MongoDB
// one of them conflicts and runs again, and finds it.
//
// It stores the show as given: a show planned from the catalog, whose
// theatre, screen and movie must still be there, is stored with
// CreateCatalogShowStep.
func CreateShowStep(ctx context.Context, st Transactor, clock func() time.Time, show Show, seats []Seat) error {
	if err := checkNewShow(show, seats); err != nil {
		return err
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := checkShowIsNew(tx, show.ID); err != nil {
			return err
		}
		return tx.InsertShow(show, seats)
	})
}

// checkNewShow refuses a show without an id, or with a seat listed twice.
func checkNewShow(show Show, seats []Seat) error {
	if show.ID == "" {
		return Errorf(EINVALID, "A show needs an id.")
	}
	seen := make(map[string]bool, len(seats))
	for _, s := range seats {
		if seen[s.ID] {
			return Errorf(EINVALID, "Show %s lists seat %s twice.", show.ID, s.ID)
		}
		seen[s.ID] = true
	}
	return nil
}

// checkShowIsNew is ErrShowDeleted when showID had a show that was
// deleted, ErrShowExists when it has one.
func checkShowIsNew(tx Tx, showID string) error {
	deleted, err := tx.ShowDeleted(showID)
	if err != nil {
		return err
	}
	if deleted {
		return ErrShowDeleted
	}
	switch _, err = tx.ShowByID(showID); {
	case err == nil:
		return ErrShowExists
	case !errors.Is(err, ErrShowNotFound):
		return err
	}
	return nil
}

// DeleteShowStep deletes a show and its seats and holds when it never had
// a booking and no seat of it is locked, otherwise ErrInUse (cancel it
// instead); it keeps the id, so that CreateShowStep of it is
// ErrShowDeleted. A hold or a payment racing it writes a seat or a hold
// this deletes, so in MongoDB one of the two runs again after the other.
func DeleteShowStep(ctx context.Context, st Transactor, clock func() time.Time, showID string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if _, err := tx.ShowByID(showID); err != nil {
			return err
		}
		n, err := tx.CountShowBookings(showID)
		if err != nil {
			return err
		}
		if n > 0 {
			return ErrInUse("The show has %d booking(s): cancel it instead, which refunds them.", n)
		}
		if n, err = tx.CountLockedSeats(showID); err != nil {
			return err
		}
		if n > 0 {
			return ErrInUse("%d seat(s) of the show are held just now: cancel it instead.", n)
		}
		return tx.DeleteShowRecords(showID)
	})
}

// CancelBatch is how many seats, or bookings, one follow-up step of a
// show's cancellation takes: small enough that a step of a show of any
// size is a short transaction.
const CancelBatch = 100

// CancelShowSteps cancels a show (SPEC §10) and finishes the job: first
// MarkShowCancelledStep, which at once stops sales, settlement to
// confirmed and the door; then ReleaseShowSeatsStep over the show's seats,
// batch by batch, which frees the locked ones and releases their holds;
// then RefundShowBookingsStep until no confirmed booking is left. It
// returns the show and the bookings it made due a refund, as they are
// afterwards. Run again on a cancelled show (after a crash between steps,
// say), it does what is left, and returns the bookings it marked then.
func CancelShowSteps(ctx context.Context, st Transactor, clock func() time.Time, showID string, batch int) (Show, []Booking, error) {
	batch = max(batch, 1)
	show, err := MarkShowCancelledStep(ctx, st, clock, showID)
	if err != nil {
		return Show{}, nil, err
	}
	for after := ""; ; {
		next, err := ReleaseShowSeatsStep(ctx, st, clock, showID, after, batch)
		if err != nil {
			return show, nil, err
		}
		if next == "" {
			break
		}
		after = next
	}
	var due []Booking
	for {
		marked, err := RefundShowBookingsStep(ctx, st, clock, showID, batch)
		due = append(due, marked...)
		if err != nil {
			return show, due, err
		}
		if len(marked) < batch {
			return show, due, nil
		}
	}
}

// saleShards is how many keys settlements of one show serialise on with
// its cancellation (saleKey): settlements of one show on different keys do
// not queue behind each other in MongoDB, and the cancellation writes them
// all.
const saleShards = 16

// saleKey is the key a settlement of hold holdID, booking on show showID,
// serialises on with the show's cancellation.
func saleKey(showID, holdID string) string {
	h := fnv.New32a()
	h.Write([]byte(holdID))
	return saleShardKey(showID, int(h.Sum32()%saleShards))
}

func saleShardKey(showID string, shard int) string {
	return "sale:" + showID + ":" + strconv.Itoa(shard)
}

// MarkShowCancelledStep records that the show is cancelled, at the
// transaction's instant, in one step of one write; a cancelled show is
// returned as it is. Every step that sells, settles or admits reads the
// show in its own transaction, so from here on holds, Pay and More time
// are ErrShowCancelled, a payment landing is refund_due and the door
// refuses. Settlement and the door serialise with it on the show; a Pay or
// a hold of MongoDB that read the show before this committed may still
// commit after it (as if it had come first): the follow-up steps write
// what such a step writes, so they conflict with it or see it.
func MarkShowCancelledStep(ctx context.Context, st Transactor, clock func() time.Time, showID string) (Show, error) {
	var out Show
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		show, err := tx.ShowByID(showID)
		if err != nil {
			return err
		}
		if !show.Cancelled() {
			// A settlement to confirmed serialises on the same keys, as
			// it decides on a show it only reads (SettlePaymentStep), and
			// so does the door (AdmitTicketStep): once this commits,
			// neither confirms nor admits on this show.
			for shard := range saleShards {
				if err := tx.Serialize(saleShardKey(showID, shard)); err != nil {
					return err
				}
			}
			if err := tx.Serialize("door:" + showID); err != nil {
				return err
			}
			show.CancelledAt = tx.Now()
			if err := tx.SetShowCancelled(showID, show.CancelledAt); err != nil {
				return err
			}
		}
		out = show
		return nil
	})
	return out, err
}

// ReleaseShowSeatsStep is one follow-up step of a cancelled show: of the
// show's seats after after, in id order, the next batch; the locked ones
// are freed and their holds, when still active, released. It returns the
// last seat id of the batch, to go on from, or "" when the show has no
// more. Serialised on every seat of the batch not booked (GuardSeats): a
// hold, Back, More time or settlement that read the show before it was
// marked writes some of those seats, so it commits before this step reads
// them (and this step frees what it locked) or conflicts with it and runs
// again after, and finds the show cancelled. A show not cancelled is left
// alone.
func ReleaseShowSeatsStep(ctx context.Context, st Transactor, clock func() time.Time, showID, after string, batch int) (string, error) {
	var next string
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		next = ""
		show, err := tx.SaleFacts(showID)
		if err != nil || !show.Cancelled() {
			return err
		}
		seats, err := tx.ShowSeatsAfter(showID, after, batch)
		if err != nil || len(seats) == 0 {
			return err
		}
		var unbooked, locked, holdIDs []string
		seenHold := map[string]bool{}
		for _, s := range seats {
			if s.Status == SeatBooked {
				continue
			}
			unbooked = append(unbooked, s.ID)
			if s.Status == SeatLocked {
				locked = append(locked, s.ID)
				if s.HoldID != "" && !seenHold[s.HoldID] {
					seenHold[s.HoldID] = true
					holdIDs = append(holdIDs, s.HoldID)
				}
			}
		}
		if err := tx.GuardSeats(showID, unbooked); err != nil {
			return err
		}
		if len(locked) > 0 {
			if err := tx.FreeShowSeats(showID, locked); err != nil {
				return err
			}
		}
		for _, id := range holdIDs {
			h, err := tx.Hold(id)
			if errors.Is(err, ErrHoldNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if h.State == HoldActive {
				if err := tx.SetHoldState(h.ID, HoldReleased); err != nil {
					return err
				}
			}
		}
		if len(seats) == batch {
			next = seats[len(seats)-1].ID
		}
		return nil
	})
	return next, err
}

// RefundShowBookingsStep is the last follow-up step of a cancelled show,
// run until it marks fewer than batch: up to batch confirmed bookings of
// the show become refund_due, reason "show cancelled", or refunded at
// once for a box-office booking of amount 0 (Booking.CancelledShow), each with its mail queued in the same step. It
// returns them as they are afterwards. Each booking it marks is written
// here, so a door admitting one at once conflicts with it in MongoDB; a
// settlement to confirmed that read the show before it was marked wrote
// seats that ReleaseShowSeatsStep guarded, so it is confirmed before
// these steps read. A show not cancelled is left alone.
func RefundShowBookingsStep(ctx context.Context, st Transactor, clock func() time.Time, showID string, batch int) ([]Booking, error) {
	var marked []Booking
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		marked = nil
		show, err := tx.SaleFacts(showID)
		if err != nil || !show.Cancelled() {
			return err
		}
		confirmed, err := tx.ConfirmedBookings(showID, batch)
		if err != nil {
			return err
		}
		for _, b := range confirmed {
			nb, changed := b.CancelledShow(tx.Now())
			if !changed {
				continue
			}
			write := tx.SetBookingCancelled
			if nb.State == BookingRefunded {
				write = tx.UpdatePaymentBooking // with its refund (a comp sold at the counter)
			}
			if err := write(nb); err != nil {
				return err
			}
			if m, ok := MailFor(b, nb, nb.UpdatedAt); ok {
				if err := QueueMailIn(tx, m); err != nil {
					return err
				}
			}
			marked = append(marked, nb)
		}
		return nil
	})
	return marked, err
}
