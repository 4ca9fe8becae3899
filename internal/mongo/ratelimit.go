package mongo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// colRateLimits holds one document per key of the rate limiter: its
// current window.
const colRateLimits = "rate_limits"

// RateLimiter counts events per key in fixed windows in the rate_limits
// collection, so that HOLD_RATE holds across every process on the database
// (SPEC §8). It is a web.Limiter.
type RateLimiter struct {
	col *mongo.Collection
	// now is the clock; tests move it.
	now func() time.Time
}

// RateLimiter returns the rate limiter on this database. Migrate creates
// its TTL index.
func (s *Store) RateLimiter() *RateLimiter {
	return &RateLimiter{col: s.col(colRateLimits), now: time.Now}
}

// rateLimitDoc is a key's current window. ExpiresAt is its end, a BSON date
// so that the TTL index on it deletes ended windows (a TTL index is fine
// here; the rule against them is for seats). Dates have millisecond
// precision, plenty for a window.
type rateLimitDoc struct {
	Key         string    `bson:"_id"`
	WindowStart time.Time `bson:"window_start"`
	ExpiresAt   time.Time `bson:"expires_at"`
	Count       int       `bson:"count"`
}

// migrateRateLimits creates the TTL index that deletes ended windows, about
// once a minute; Allow does not rely on it, since it resets an ended window
// that is still there.
func (s *Store) migrateRateLimits(ctx context.Context) error {
	_, err := s.col(colRateLimits).Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys:    bson.D{{Key: "expires_at", Value: 1}},
		Options: options.Index().SetName("expires_at_ttl").SetExpireAfterSeconds(0),
	})
	if err != nil {
		return fmt.Errorf("mongo: migrate: indexes of %s: %w", colRateLimits, err)
	}
	return nil
}

// Allow records one event for key and reports whether it is within limit
// events per window. Windows are fixed: one starts with the first event
// after the previous one ended. When the event is refused, retryAfter is
// the time left in the window.
func (l *RateLimiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error) {
	return l.allowAt(ctx, l.now(), key, limit, window)
}

// allowAt is Allow at the instant now. It is one FindOneAndUpdate with an
// aggregation pipeline, atomic on the one document: a new key or an ended
// window starts a window at now with count 1, otherwise count goes up by
// one. Every expression of the $set stage sees the document as it was.
func (l *RateLimiter) allowAt(ctx context.Context, now time.Time, key string, limit int, window time.Duration) (bool, time.Duration, error) {
	if window <= 0 {
		return false, 0, fmt.Errorf("mongo: rate limit: window %v is not positive", window)
	}
	now = now.Truncate(time.Millisecond).UTC() // what a BSON date keeps
	end := now.Add(window)
	ended := bson.D{{Key: "$lte", Value: bson.A{
		bson.D{{Key: "$ifNull", Value: bson.A{"$expires_at", time.Unix(0, 0).UTC()}}}, now,
	}}}
	cond := func(then, otherwise any) bson.D {
		return bson.D{{Key: "$cond", Value: bson.A{ended, then, otherwise}}}
	}
	update := mongo.Pipeline{{{Key: "$set", Value: bson.D{
		{Key: "window_start", Value: cond(now, "$window_start")},
		{Key: "expires_at", Value: cond(end, "$expires_at")},
		{Key: "count", Value: cond(1, bson.D{{Key: "$add", Value: bson.A{"$count", 1}}})},
	}}}}
	opts := options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)
	var doc rateLimitDoc
	err := l.col.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: key}}, update, opts).Decode(&doc)
	if mongo.IsDuplicateKeyError(err) {
		// Two upserts of a new key raced and the other inserted it: now
		// it exists, and the same update counts on it.
		err = l.col.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: key}}, update, opts).Decode(&doc)
	}
	if err != nil {
		return false, 0, fmt.Errorf("mongo: rate limit: %w", err)
	}
	if doc.Count > limit {
		return false, doc.ExpiresAt.Sub(now), nil
	}
	return true, 0, nil
}

// Count is how many events key has in its current window, and the time
// left in that window, read without counting one: the sign-in checks an
// account's failures before it checks a password, and counts only the
// failures.
func (l *RateLimiter) Count(ctx context.Context, key string) (int, time.Duration, error) {
	now := l.now().Truncate(time.Millisecond).UTC()
	var doc rateLimitDoc
	err := l.col.FindOne(ctx, bson.D{{Key: "_id", Value: key}}).Decode(&doc)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return 0, 0, nil
	case err != nil:
		return 0, 0, fmt.Errorf("mongo: rate limit count: %w", err)
	case !doc.ExpiresAt.After(now):
		return 0, 0, nil
	}
	return doc.Count, doc.ExpiresAt.Sub(now), nil
}
