package mongo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

var _ booking.PruneStore = (*Store)(nil)

// pruneStep is the most documents one request of Prune deletes, and the
// most holds one of its reads examines. MongoDB locks documents, not the
// database, so a step holds back only writers of the documents it
// deletes, which nobody writes any more; the step bounds the size of each
// request and of the work lost to an error.
const pruneStep = 500

// prunables are the collections Prune deletes from by a time: callback
// records and event ids received before the cutoff (an event id is kept
// RETENTION, so that a late repeat is still recognised), and mail sent or
// given up before it. Sessions and rate-limit windows are not here: TTL
// indexes delete them as they expire (migrate.go), without batches a
// database-wide lock would need. Each filter is served by an index
// (pruneIndexes).
func prunables(cut int64) []struct {
	op, col string
	filter  bson.D
} {
	before := bson.D{{Key: "$lt", Value: cut}}
	done := func(field string) bson.D {
		return bson.D{{Key: field, Value: bson.D{{Key: "$gt", Value: int64(0)}, {Key: "$lt", Value: cut}}}}
	}
	return []struct {
		op, col string
		filter  bson.D
	}{
		{"prune callbacks", colCallbacks, bson.D{{Key: "received_at", Value: before}}},
		{"prune events", colPaymentEvents, bson.D{{Key: "received_at", Value: before}}},
		{"prune mail", colMail, bson.D{{Key: "$or", Value: bson.A{done("sent_at"), done("gave_up_at")}}}},
		{"prune sandbox callbacks", colOutbound, bson.D{{Key: "$or", Value: bson.A{done("delivered_at"), done("gave_up_at")}}}},
		// Guards last written before the cutoff guard nothing: their holds
		// lapsed long ago.
		{"prune guards", colAddressGuards, bson.D{{Key: "at", Value: before}}},
	}
}

// pruneIndexes are the indexes Prune's filters need, by collection; they
// belong in indexes() (migrate.go), where Migrate creates them. Partial
// ones for mail and the sandbox's callbacks, so that those still to send
// have no entry.
func pruneIndexes() map[string][]mongo.IndexModel {
	byTime := func(name, field string) mongo.IndexModel {
		return mongo.IndexModel{Keys: bson.D{{Key: field, Value: 1}}, Options: options.Index().SetName(name)}
	}
	done := func(name, field string) mongo.IndexModel {
		m := byTime(name, field)
		m.Options.SetPartialFilterExpression(bson.D{{Key: field, Value: bson.D{{Key: "$gt", Value: int64(0)}}}})
		return m
	}
	return map[string][]mongo.IndexModel{
		colCallbacks:     {byTime("received", "received_at")},
		colPaymentEvents: {byTime("received", "received_at")},
		colMail:          {done("sent", "sent_at"), done("gave_up", "gave_up_at")},
		colOutbound:      {done("delivered", "delivered_at"), done("gave_up", "gave_up_at")},
		colAddressGuards: {byTime("at", "at")},
	}
}

// Prune deletes up to limit documents of history from before before (SPEC
// §12): the prunables, then closed on-sales with their queues
// (pruneOnSales), then ended holds (pruneHolds), in requests of at
// most pruneStep documents. It returns how many it deleted; callers
// repeat while that is limit. Payments and bookings are never pruned.
func (s *Store) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	cut := nanos(before)
	n := 0
	for _, p := range prunables(cut) {
		if n >= limit {
			return n, nil
		}
		k, err := s.deleteInSteps(ctx, p.col, p.filter, limit-n)
		n += k
		if err != nil {
			return n, fmt.Errorf("mongo: %s: %w", p.op, err)
		}
	}
	if n >= limit {
		return n, nil
	}
	k, err := s.pruneOnSales(ctx, cut, limit-n)
	n += k
	if err != nil {
		return n, fmt.Errorf("mongo: prune on-sales: %w", err)
	}
	if n >= limit {
		return n, nil
	}
	k, err = s.pruneHolds(ctx, before, limit-n)
	if err != nil {
		return n + k, fmt.Errorf("mongo: prune holds: %w", err)
	}
	return n + k, nil
}

// idDoc is a document read for its _id alone.
type idDoc struct {
	ID string `bson:"_id"`
}

// deleteInSteps deletes the documents of col that filter selects, up to
// limit, pruneStep at a time: it reads the ids of a step through filter's
// index, then deletes those ids that filter still selects.
func (s *Store) deleteInSteps(ctx context.Context, col string, filter bson.D, limit int) (int, error) {
	n := 0
	for n < limit {
		step := min(pruneStep, limit-n)
		cur, err := s.col(col).Find(ctx, filter,
			options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(step)))
		if err != nil {
			return n, err
		}
		var docs []idDoc
		if err := cur.All(ctx, &docs); err != nil {
			return n, err
		}
		if len(docs) == 0 {
			return n, nil
		}
		ids := make([]string, len(docs))
		for i, d := range docs {
			ids[i] = d.ID
		}
		res, err := s.col(col).DeleteMany(ctx, append(bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}, filter...))
		if err != nil {
			return n, err
		}
		n += int(res.DeletedCount)
		if len(docs) < step {
			return n, nil
		}
	}
	return n, nil
}

// holdIDTimeChars is how many leading characters of a booking.NewHoldID
// encode nothing but its time: 9 base32 characters, 45 of its 48 bits of
// milliseconds.
const holdIDTimeChars = 9

// holdWalks remembers, per database, where pruneHolds' walk of the holds
// got to, so that draining a backlog in many calls does not walk again, at
// each call, the holds that stay for good. It is progress, not
// configuration: losing it (a restart) costs one walk from the start.
var holdWalks sync.Map // database name → last hold id examined

// pruneHolds deletes up to limit ended holds made before before that no
// payment, booking or locked seat refers to: anything but completed (an
// active one that locks no seat has lapsed and lost its seats). Holds have
// no index on their time, and one would cost every hold a write; but their
// ids begin with it (booking.NewHoldID), so those made before before are a
// range of _id, walked pruneStep at a time. (Holds with ids of the older,
// random kind are found only when their id sorts before before's.)
//
// The references are read outside a transaction: a hold that has ended
// unpaid can gain none, since StartPaymentStep refuses it (CheckPayable) and
// new holds lock seats under their own ids. The delete still requires the
// hold to be unpaid and not completed, document by document.
func (s *Store) pruneHolds(ctx context.Context, before time.Time, limit int) (int, error) {
	bound := booking.NewHoldID(before)[:holdIDTimeChars]
	cut := nanos(before)
	after := ""
	if v, ok := holdWalks.Load(s.db.Name()); ok && v.(string) < bound {
		after = v.(string)
	}
	n := 0
	defer func() { holdWalks.Store(s.db.Name(), after) }()
	for n < limit {
		cur, err := s.col(colHolds).Find(ctx,
			bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: after}, {Key: "$lt", Value: bound}}}},
			options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(pruneStep).
				SetProjection(bson.D{{Key: "show_id", Value: 1}, {Key: "state", Value: 1}, {Key: "created_at", Value: 1}, {Key: "payment_id", Value: 1}}))
		if err != nil {
			return n, err
		}
		var walked []holdDoc
		if err := cur.All(ctx, &walked); err != nil {
			return n, err
		}
		var ended []holdDoc
		for _, h := range walked {
			if h.State != string(booking.HoldCompleted) && h.CreatedAt < cut && h.PaymentID == "" {
				ended = append(ended, h)
			}
		}
		keep, err := s.referencedHolds(ctx, ended)
		if err != nil {
			return n, err
		}
		var gone []string
		last, capped := after, false
		for _, h := range walked {
			if capped {
				break // decided at the next step
			}
			last = h.ID
			if slices.ContainsFunc(ended, func(e holdDoc) bool { return e.ID == h.ID }) && !keep[h.ID] {
				gone = append(gone, h.ID)
				capped = len(gone) == limit-n
			}
		}
		if len(gone) > 0 {
			res, err := s.col(colHolds).DeleteMany(ctx, bson.D{
				{Key: "_id", Value: bson.D{{Key: "$in", Value: gone}}},
				{Key: "state", Value: bson.D{{Key: "$ne", Value: string(booking.HoldCompleted)}}},
				{Key: "payment_id", Value: bson.D{{Key: "$in", Value: bson.A{"", nil}}}},
			})
			if err != nil {
				return n, err
			}
			n += int(res.DeletedCount)
		}
		if !capped && len(walked) < pruneStep {
			after = "" // the walk reached before: the next one starts over
			break
		}
		after = last
		if capped {
			break
		}
	}
	return n, nil
}

// referencedHolds returns the ids among holds that a payment, a booking
// or a locked seat refers to, through the hold indexes of payments and
// bookings and the show_hold index of seats.
func (s *Store) referencedHolds(ctx context.Context, holds []holdDoc) (map[string]bool, error) {
	refs := map[string]bool{}
	if len(holds) == 0 {
		return refs, nil
	}
	ids := make([]string, len(holds))
	byShow := map[string][]string{}
	for i, h := range holds {
		ids[i] = h.ID
		byShow[h.ShowID] = append(byShow[h.ShowID], h.ID)
	}
	inIDs := bson.D{{Key: "hold_id", Value: bson.D{{Key: "$in", Value: ids}}}}
	var locks bson.A
	for show, ids := range byShow {
		locks = append(locks, bson.D{{Key: "show_id", Value: show}, {Key: "hold_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	}
	for _, q := range []struct {
		col    string
		filter bson.D
	}{
		{colPayments, inIDs},
		{colBookings, inIDs},
		{colSeats, bson.D{{Key: "$or", Value: locks}, {Key: "status", Value: string(booking.SeatLocked)}}},
	} {
		res := s.col(q.col).Distinct(ctx, "hold_id", q.filter)
		// DistinctResult.Decode does not return the operation's error,
		// whatever its doc comment says (driver v2.10.0,
		// mongo/results.go): Err is asked first.
		err := res.Err()
		if errors.Is(err, mongo.ErrNoDocuments) {
			continue
		}
		var found []string
		if err == nil {
			err = res.Decode(&found)
		}
		if err != nil {
			return nil, fmt.Errorf("holds referred to from %s: %w", q.col, err)
		}
		for _, id := range found {
			refs[id] = true
		}
	}
	return refs, nil
}
