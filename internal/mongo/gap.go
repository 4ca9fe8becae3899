package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// checkGaps reads, inside the hold's transaction and after its writes, the
// seats of every row the hold touches, as its snapshot has them with its
// own writes, and lets booking.CheckGaps decide (SEAT_GAPS=refuse).
func (s *Store) checkGaps(ctx context.Context, h booking.Hold, m booking.Moment) error {
	if m.AllowGaps {
		return nil
	}
	mine, err := seatsOf(ctx, s.col(colSeats), h.ShowID, h.SeatIDs)
	if err != nil {
		return fmt.Errorf("read the hold's seats: %w", err)
	}
	rows := make(bson.A, 0, len(mine))
	seen := map[int]bool{}
	for _, st := range mine {
		if seen[st.GridRow] {
			continue
		}
		seen[st.GridRow] = true
		rows = append(rows, st.GridRow)
		// Two holds into one row at once touch different seats and would
		// each check the row without the other's seats; writing the row's
		// guard makes them conflict, and the retried one sees both.
		if err := s.guard(ctx, fmt.Sprintf("%s/row/%d", h.ShowID, st.GridRow), m.Now); err != nil {
			return fmt.Errorf("guard row: %w", err)
		}
	}
	seats, err := findSeats(ctx, s.col(colSeats), bson.D{
		{Key: "show_id", Value: h.ShowID},
		{Key: "grid_row", Value: bson.D{{Key: "$in", Value: rows}}},
	})
	if err != nil {
		return fmt.Errorf("read the hold's rows: %w", err)
	}
	return booking.CheckGaps(seats, h.SeatIDs, func(st booking.Seat) bool {
		return st.HoldID == h.ID || st.AvailableAt(m)
	})
}

// guard writes guard document id at now, inside the caller's transaction:
// two transactions that write one guard conflict, and the one retried sees
// what the other committed (colAddressGuards).
func (s *Store) guard(ctx context.Context, id string, now time.Time) error {
	_, err := s.col(colAddressGuards).UpdateOne(ctx, byID(id),
		bson.D{{Key: "$set", Value: bson.D{{Key: "at", Value: nanos(now)}}}}, options.UpdateOne().SetUpsert(true))
	return err
}
