package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

var _ booking.Transactor = (*Store)(nil)

// Atomically runs step in one multi-document transaction (inTx: snapshot
// read concern, majority write concern). The clock is read once, before
// the first attempt, so that every run of the step (the driver runs it
// again after a TransientTransactionError, such as a write conflict with
// another step) decides at the same instant.
func (s *Store) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	now := clock()
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, step(&tx{s: s, ctx: ctx, now: now})
	})
	return wrap("step", err)
}

// tx is booking.Tx in a MongoDB transaction: ctx carries the session.
type tx struct {
	s   *Store
	ctx context.Context
	now time.Time
}

func (t *tx) Now() time.Time { return t.now }

// Serialize writes key's guard document (in colAddressGuards, whose
// documents are all guards): two transactions that both write it conflict,
// and the driver runs the later one again, after the earlier committed.
// $inc changes the document on every write: an update that changed
// nothing would not count as a write, and would not conflict.
func (t *tx) Serialize(key string) error {
	_, err := t.s.col(colAddressGuards).UpdateOne(t.ctx, byID(key), bson.D{
		{Key: "$inc", Value: bson.D{{Key: "n", Value: int64(1)}}},
		{Key: "$set", Value: bson.D{{Key: "at", Value: nanos(t.now)}}},
	}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("serialize on %s: %w", key, err)
	}
	return nil
}

var _ booking.HoldGater = (*Store)(nil)

// GateHoldsPerShow asks each process to let one hold step of a show into a
// transaction at a time: holds of one show conflict here (on the seats,
// the rows' and the owner's guards), and a process's own requests would
// otherwise spend their retries losing to each other.
func (s *Store) GateHoldsPerShow() bool { return true }
