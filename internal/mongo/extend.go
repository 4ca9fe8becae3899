package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

// ExtendHold reads the hold and its show's sales window, lets
// booking.Hold.Extend decide, and locks the hold's seats again at m.Now,
// in one transaction. Two requests at once both write the hold's document:
// one conflicts, runs again, and counts the other's extension.
func (s *Store) ExtendHold(ctx context.Context, holdID, owner string, m booking.Moment) (booking.Hold, error) {
	h, err := inTx(ctx, s, func(ctx context.Context) (booking.Hold, error) {
		h, err := s.findOwnHold(ctx, holdID, owner)
		if err != nil {
			return booking.Hold{}, err
		}
		if _, err := s.showOnSale(ctx, h.ShowID, m); err != nil {
			return booking.Hold{}, err
		}
		next, err := h.Extend(m)
		if err != nil {
			return booking.Hold{}, err
		}
		res, err := s.col(colSeats).UpdateMany(ctx, lockedBy(h.ShowID, h.ID),
			bson.D{{Key: "$set", Value: bson.D{{Key: "locked_at", Value: nanos(next.CreatedAt)}}}})
		if err != nil {
			return booking.Hold{}, fmt.Errorf("lock seats again: %w", err)
		}
		if res.MatchedCount != int64(len(h.SeatIDs)) {
			// A live hold's seats are all still its own.
			return booking.Hold{}, fmt.Errorf("hold %s locks %d of its %d seats", h.ID, res.MatchedCount, len(h.SeatIDs))
		}
		if _, err := s.col(colHolds).UpdateOne(ctx, byID(h.ID), bson.D{{Key: "$set", Value: bson.D{
			{Key: "created_at", Value: nanos(next.CreatedAt)}, {Key: "extensions", Value: next.Extensions},
		}}}); err != nil {
			return booking.Hold{}, fmt.Errorf("update hold: %w", err)
		}
		return next, nil
	})
	if err != nil {
		return booking.Hold{}, wrap("extend hold", err)
	}
	return h, nil
}
