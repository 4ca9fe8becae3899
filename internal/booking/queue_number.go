package booking

import (
	"context"
	"time"
)

// Numbering the queue (SPEC §18). A visitor's position is stored on its
// queue entry, so that reading it is one point read whatever the queue's
// length: counting the entries before each visitor would cost O(k) per
// visitor, O(n²) for an on-sale of n visitors. Entries are numbered in
// batches by NumberQueueStep, lazily, by the requests that need a
// position: no scheduler.
//
// The order: from SettlingMargin after T0 on, first every entry that
// joined before T0, by (Rank, join id), until none of them is left
// unnumbered; then every other entry by (JoinedAt, join id). A join from
// before T0 that reaches the database only after the entries before T0
// were all numbered (a process whose clock lags, or a write slower than
// SettlingMargin) is not put back among them: it follows in join order,
// with the entries still unnumbered then, and since it joined before T0 it
// comes first among those. Positions are dense and unique: 0, 1, 2, …

const (
	// QueueNumberBatch is how many entries one NumberQueueStep numbers.
	QueueNumberBatch = 1000
	// QueueNumberSteps is how many steps a visitor's request runs at
	// most to number its own entry before it says "waiting" without a
	// position (and tries again on its next request).
	QueueNumberSteps = 5
)

// QueueNumbering is how far an on-sale's queue is numbered.
type QueueNumbering struct {
	// Numbered is how many entries have a position: the next one gets
	// Numbered.
	Numbered int
	// EarlyDone says every entry that joined before T0 was numbered and
	// numbering goes on in join order.
	EarlyDone bool
}

// QueueTx is what NumberQueueStep reads and writes in a transaction.
type QueueTx interface {
	// QueueNumbering is how far on-sale onSaleID's queue is numbered;
	// ErrOnSaleNotFound when there is no such on-sale.
	QueueNumbering(onSaleID string) (QueueNumbering, error)
	// UnnumberedQueue is the join ids of up to limit entries of the
	// on-sale's queue without a position: with early, those that joined
	// before T0, by (Rank, join id); without, all of them, by (JoinedAt,
	// join id).
	UnnumberedQueue(onSaleID string, early bool, limit int) ([]string, error)
	// NumberQueue gives the entry joinIDs[i] the position from+i.
	NumberQueue(onSaleID string, joinIDs []string, from int) error
	// SetQueueNumbering stores n as how far the queue is numbered.
	SetQueueNumbering(onSaleID string, n QueueNumbering) error
}

func queueKey(onSaleID string) string { return "queue:" + onSaleID }

// NumberQueueStep numbers up to batch more entries of on-sale onSaleID's
// queue, in the order above, continuing from where the last step
// stopped, and returns how many it numbered. It does nothing before
// SettlingMargin after T0, when the order of those who joined before T0
// is not settled yet. Steps serialise on the queue's key, so two at once
// never give one position twice nor skip one.
func NumberQueueStep(ctx context.Context, st Transactor, clock func() time.Time, onSaleID string, batch int) (int, error) {
	if batch <= 0 {
		return 0, nil
	}
	var done int
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		done = 0
		if err := tx.Serialize(queueKey(onSaleID)); err != nil {
			return err
		}
		o, err := tx.OnSaleByID(onSaleID)
		if err != nil {
			return err
		}
		if tx.Now().Before(o.OpensAt.Add(SettlingMargin)) {
			return nil
		}
		n, err := tx.QueueNumbering(onSaleID)
		if err != nil {
			return err
		}
		number := func(ids []string) error {
			if len(ids) == 0 {
				return nil
			}
			if err := tx.NumberQueue(onSaleID, ids, n.Numbered); err != nil {
				return err
			}
			n.Numbered += len(ids)
			done += len(ids)
			return nil
		}
		if !n.EarlyDone {
			ids, err := tx.UnnumberedQueue(onSaleID, true, batch)
			if err != nil {
				return err
			}
			if err := number(ids); err != nil {
				return err
			}
			n.EarlyDone = len(ids) < batch
		}
		if n.EarlyDone && done < batch {
			ids, err := tx.UnnumberedQueue(onSaleID, false, batch-done)
			if err != nil {
				return err
			}
			if err := number(ids); err != nil {
				return err
			}
		}
		return tx.SetQueueNumbering(onSaleID, n)
	})
	return done, err
}
