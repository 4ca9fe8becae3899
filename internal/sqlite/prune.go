package sqlite

import (
	"context"
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

var _ booking.PruneStore = (*Store)(nil)

// pruneStep is the most rows one statement of Prune deletes, and the most
// holds one of its transactions examines: the write lock is held for one
// such step at a time, so that pruning keeps every kind of step under the
// few milliseconds SPEC §12 allows, where one DELETE of everything due
// would hold every write back far longer. The step sizes were timed by
// TestPruneStepHoldsTheLockBriefly with PRUNE_MEASURE=1 (docs/OPERATIONS.md);
// the figures are in docs/PERFORMANCE.md under that test's name.
const pruneStep = 250

// pruneRest is the least pause between two steps of Prune, within a call
// and from one call to the next; after a step that took longer, the pause
// is as long as the step. The write lock is free meanwhile, so that a hold
// waiting in another process, whose busy handler polls every few
// milliseconds, gets its turn instead of finding the next step already
// running (TestPruneDoesNotStallAnotherProcess; what calls back to back
// without the rest cost that hold is in docs/PERFORMANCE.md).
const pruneRest = 5 * time.Millisecond

// prunables are the tables Prune deletes from by a time with an index on
// it (0001, 0002, 0014_prune.sql): every row it finds before the cutoff
// goes. Each statement deletes at most ?2 rows from before ?1, oldest
// first. Sessions are those that expired (scs keeps expiry); rate-limit
// windows those that ended; callback records and event ids those received
// (an event id is kept RETENTION, so a late repeat is still recognised);
// mail, and the sandbox's callbacks, what was sent (delivered) or given
// up; on-sales, and their queues, those closed. Payments and bookings are never pruned,
// and none of these rows is one they refer to.
var prunables = []struct{ op, sql string }{
	{"prune sessions", `DELETE FROM sessions WHERE rowid IN (
		SELECT rowid FROM sessions WHERE expiry < ?1 ORDER BY expiry LIMIT ?2)`},
	{"prune rate limits", `DELETE FROM rate_limits WHERE key IN (
		SELECT key FROM rate_limits WHERE window_end < ?1 ORDER BY window_end LIMIT ?2)`},
	{"prune callbacks", `DELETE FROM payment_callbacks WHERE id IN (
		SELECT id FROM payment_callbacks WHERE received_at < ?1 ORDER BY received_at LIMIT ?2)`},
	{"prune events", `DELETE FROM payment_events WHERE id IN (
		SELECT id FROM payment_events WHERE received_at < ?1 ORDER BY received_at LIMIT ?2)`},
	{"prune mail", `DELETE FROM mail WHERE id IN (
		SELECT id FROM mail WHERE (sent_at IS NOT NULL OR gave_up_at IS NOT NULL)
			AND coalesce(sent_at, gave_up_at) < ?1
		ORDER BY coalesce(sent_at, gave_up_at) LIMIT ?2)`},
	{"prune sandbox callbacks", `DELETE FROM callback_outbox WHERE payment_id IN (
		SELECT payment_id FROM callback_outbox INDEXED BY callback_outbox_done
			WHERE (delivered_at IS NOT NULL OR gave_up_at IS NOT NULL)
			AND coalesce(delivered_at, gave_up_at) < ?1
		ORDER BY coalesce(delivered_at, gave_up_at) LIMIT ?2)`},
	// On-sales closed before the cutoff: their queue entries first, then
	// each on-sale with none left (its onsale_shows go with it, ON DELETE
	// CASCADE).
	{"prune queue entries", `DELETE FROM queue_entries WHERE (onsale_id, join_id) IN (
		SELECT onsale_id, join_id FROM queue_entries
			WHERE onsale_id IN (SELECT id FROM onsales INDEXED BY onsales_closes WHERE closes_at < ?1)
		LIMIT ?2)`},
	{"prune on-sales", `DELETE FROM onsales WHERE id IN (
		SELECT id FROM onsales INDEXED BY onsales_closes WHERE closes_at < ?1
			AND NOT EXISTS (SELECT 1 FROM queue_entries WHERE onsale_id = onsales.id)
		ORDER BY closes_at LIMIT ?2)`},
}

// Prune deletes up to limit rows of history from before before (SPEC §12):
// the prunables, then ended holds (pruneHolds). Each step is one
// statement or transaction of at most pruneStep rows, with a rest before
// the next (pruneRest); it returns how many rows it deleted, and callers
// repeat while that is limit. Calls in one process take turns.
func (s *Store) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	s.pruneMu.Lock()
	defer s.pruneMu.Unlock()
	cut := before.UnixNano()
	n := 0
	for _, p := range prunables {
		if n >= limit {
			return n, nil
		}
		k, err := s.deleteInSteps(ctx, p.op, p.sql, cut, limit-n)
		n += k
		if err != nil {
			return n, err
		}
	}
	if n >= limit {
		return n, nil
	}
	k, err := s.pruneHolds(ctx, before, limit-n)
	return n + k, err
}

// deleteInSteps runs query, a DELETE of at most ?2 rows from before ?1, one
// pruneStep at a time, until it has deleted limit rows or a step finds
// fewer than it may delete. The caller holds pruneMu.
func (s *Store) deleteInSteps(ctx context.Context, op, query string, cut int64, limit int) (int, error) {
	n := 0
	for n < limit {
		step := min(pruneStep, limit-n)
		var k int64
		err := s.pruneOneStep(ctx, op, func() error {
			return s.writeStmt(ctx, op, func() error {
				res, err := s.write.ExecContext(ctx, query, cut, step)
				if err != nil {
					return err
				}
				k, err = res.RowsAffected()
				return err
			})
		})
		n += int(k)
		if err != nil || int(k) < step {
			return n, err
		}
	}
	return n, nil
}

// pruneOneStep runs step, one write of Prune's, once the rest after the
// previous step is over, and sets when the next may start. The caller
// holds pruneMu.
func (s *Store) pruneOneStep(ctx context.Context, op string, step func() error) error {
	if wait := time.Until(s.pruneNext); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return wrapErr(op, ctx.Err())
		case <-t.C:
		}
	}
	start := time.Now()
	err := step()
	s.pruneNext = time.Now().Add(max(pruneRest, time.Since(start)))
	return err
}

// sweepSessions is the background sweep of expired sessions: Find already
// hides them, so this only gives the space back, in steps as Prune's.
func (s *Store) sweepSessions(ctx context.Context) {
	s.pruneMu.Lock()
	defer s.pruneMu.Unlock()
	_, _ = s.deleteInSteps(ctx, "sweep sessions", prunables[0].sql, time.Now().UnixNano()+1, sweepSessionsLimit)
}

// sweepSessionsLimit bounds one sweep: what is left goes at the next.
const sweepSessionsLimit = 100 * pruneStep

// pruneHoldsSQL examines up to ?3 holds in id order after ?1 and before ?2,
// and says of each whether it may go: ended (anything but completed; an
// active one with no seat locked by it has lapsed and lost its seats),
// made before ?4, and referred to by no payment, booking or locked seat.
// The references are found through payments_hold, bookings_hold and the
// seats' primary key among those the hold was made with (holdSeatIDs),
// and only for holds that are not completed.
var pruneHoldsSQL = `SELECT h.id, h.state <> 'completed' AND h.created_at < ?4
		AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.hold_id = h.id)
		AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.hold_id = h.id)
		AND NOT EXISTS (SELECT 1 FROM seats st WHERE st.show_id = h.show_id
			AND st.seat_id IN (SELECT value FROM json_each(` + holdSeatIDs("h.seat_ids") + `))
			AND st.hold_owner = h.owner AND st.hold_id = h.id AND st.status = 'locked')
	FROM holds h WHERE h.id > ?1 AND h.id < ?2 ORDER BY h.id LIMIT ?3`

// holdIDTimeChars is how many leading characters of a booking.NewHoldID
// encode nothing but its time: 9 base32 characters, 45 of its 48 bits of
// milliseconds.
const holdIDTimeChars = 9

// pruneHolds deletes up to limit ended holds made before before; the
// caller holds pruneMu. Holds
// have no index on their time, and one on the table every hold writes
// would cost each hold; but their ids begin with it (booking.NewHoldID),
// so the holds made before before are a range of the primary key, walked
// in steps of pruneStep. Completed holds, and those a payment refers to,
// are kept for good and walked again at each pass; so that draining a big
// backlog in many calls does not walk them again at each call, the store
// remembers where its walk got to and the next call goes on from there,
// starting over once a walk reaches before. (Holds made before migration
// 0005, whose ids are random, are found only when their id sorts before
// before's.)
func (s *Store) pruneHolds(ctx context.Context, before time.Time, limit int) (int, error) {
	bound := booking.NewHoldID(before)[:holdIDTimeChars]
	cut := before.UnixNano()
	after := s.pruneAfter
	if after >= bound {
		after = ""
	}
	n := 0
	for n < limit {
		var (
			gone             []string
			last             string
			examined, capped = 0, false
		)
		err := s.pruneOneStep(ctx, "prune holds", func() error {
			return s.inTx(ctx, "prune holds", func(tx *sql.Tx) error {
				gone, last, examined, capped = gone[:0], after, 0, false
				rows, err := tx.QueryContext(ctx, pruneHoldsSQL, after, bound, pruneStep, cut)
				if err != nil {
					return err
				}
				for rows.Next() {
					examined++
					if capped {
						continue // decided at the next step
					}
					var id string
					var ended bool
					if err := rows.Scan(&id, &ended); err != nil {
						rows.Close()
						return err
					}
					last = id
					if ended {
						gone = append(gone, id)
						capped = len(gone) == limit-n
					}
				}
				if err := rows.Close(); err != nil {
					return err
				}
				if err := rows.Err(); err != nil || len(gone) == 0 {
					return err
				}
				args := make([]any, len(gone))
				for i, id := range gone {
					args[i] = id
				}
				_, err = tx.ExecContext(ctx, `DELETE FROM holds WHERE id IN (`+placeholders(len(args))+`)`, args...)
				return err
			})
		})
		if err != nil {
			return n, err
		}
		n += len(gone)
		if !capped && examined < pruneStep {
			after = "" // the walk reached before: the next one starts over
			break
		}
		after = last
	}
	s.pruneAfter = after
	return n, nil
}
