package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
)

var _ booking.DatabaseClock = (*Store)(nil)

// DatabaseTime is the primary's clock, from the hello command's localTime
// (milliseconds).
func (s *Store) DatabaseTime(ctx context.Context) (time.Time, error) {
	var res struct {
		LocalTime time.Time `bson:"localTime"`
	}
	if err := s.client.Database("admin").RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&res); err != nil {
		return time.Time{}, fmt.Errorf("mongo: hello: %w", err)
	}
	if res.LocalTime.IsZero() {
		return time.Time{}, fmt.Errorf("mongo: hello: no localTime in the answer")
	}
	return res.LocalTime.UTC(), nil
}
