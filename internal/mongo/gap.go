package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// holdSeatsRead reads, inside the hold's transaction, what
// booking.DecideHold decides on: the requested seats and, unless
// m.AllowGaps, every other seat of their rows. Two holds into one row at
// once touch different seats and would each judge the row without the
// other's seats; writing the row's guard makes them conflict, and the one
// retried sees both.
func (s *Store) holdSeatsRead(ctx context.Context, h booking.Hold, m booking.Moment) ([]booking.Seat, error) {
	mine, err := seatsOf(ctx, s.col(colSeats), h.ShowID, h.SeatIDs)
	if err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	if m.AllowGaps {
		return mine, nil
	}
	rows := make(bson.A, 0, len(mine))
	seen := map[int]bool{}
	for _, st := range mine {
		if seen[st.GridRow] {
			continue
		}
		seen[st.GridRow] = true
		rows = append(rows, st.GridRow)
		if err := s.guard(ctx, fmt.Sprintf("%s/row/%d", h.ShowID, st.GridRow), m.Now); err != nil {
			return nil, fmt.Errorf("guard row: %w", err)
		}
	}
	if len(rows) == 0 {
		return mine, nil
	}
	seats, err := findSeats(ctx, s.col(colSeats), bson.D{
		{Key: "show_id", Value: h.ShowID},
		{Key: "grid_row", Value: bson.D{{Key: "$in", Value: rows}}},
	})
	if err != nil {
		return nil, fmt.Errorf("read the hold's rows: %w", err)
	}
	return seats, nil
}

// guard writes guard document id at now, inside the caller's transaction:
// two transactions that write one guard conflict, and the one retried sees
// what the other committed (colAddressGuards).
func (s *Store) guard(ctx context.Context, id string, now time.Time) error {
	_, err := s.col(colAddressGuards).UpdateOne(ctx, byID(id),
		bson.D{{Key: "$set", Value: bson.D{{Key: "at", Value: nanos(now)}}}}, options.UpdateOne().SetUpsert(true))
	return err
}
