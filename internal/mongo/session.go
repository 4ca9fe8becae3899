package mongo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alexedwards/scs/v2"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// SessionStore keeps scs sessions in the sessions collection of the store's
// database, so that every boxoffice process behind the load balancer sees
// every session (SPEC §3). A TTL index on expiry deletes expired sessions;
// because its monitor runs only about once a minute, Find also ignores
// sessions past their expiry.
type SessionStore struct {
	col *mongo.Collection
	now func() time.Time
	// timeout bounds the calls of the context-less scs.Store methods.
	timeout time.Duration
}

var (
	_ scs.Store    = (*SessionStore)(nil)
	_ scs.CtxStore = (*SessionStore)(nil)
)

// Sessions returns the scs store on the same database as the rest of the
// store. Migrate creates its TTL index.
func (s *Store) Sessions() *SessionStore {
	return &SessionStore{col: s.col(colSessions), now: time.Now, timeout: 5 * time.Second}
}

// sessionDoc is one session. Expiry is a BSON date, the only type a TTL
// index acts on.
type sessionDoc struct {
	Token  string    `bson:"_id"`
	Data   []byte    `bson:"data"`
	Expiry time.Time `bson:"expiry"`
}

// FindCtx returns the data of an unexpired session.
func (ss *SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var d sessionDoc
	err := ss.col.FindOne(ctx, bson.D{
		{Key: "_id", Value: token},
		{Key: "expiry", Value: bson.D{{Key: "$gt", Value: ss.now()}}},
	}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("mongo: find session: %w", err)
	}
	return d.Data, true, nil
}

// CommitCtx stores a session's data and expiry, replacing what was there.
func (ss *SessionStore) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	_, err := ss.col.ReplaceOne(ctx, bson.D{{Key: "_id", Value: token}},
		sessionDoc{Token: token, Data: b, Expiry: expiry.UTC()},
		options.Replace().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("mongo: commit session: %w", err)
	}
	return nil
}

// DeleteCtx removes a session; deleting an unknown one is no error.
func (ss *SessionStore) DeleteCtx(ctx context.Context, token string) error {
	if _, err := ss.col.DeleteOne(ctx, bson.D{{Key: "_id", Value: token}}); err != nil {
		return fmt.Errorf("mongo: delete session: %w", err)
	}
	return nil
}

// Find is FindCtx for callers without a context.
func (ss *SessionStore) Find(token string) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ss.timeout)
	defer cancel()
	return ss.FindCtx(ctx, token)
}

// Commit is CommitCtx for callers without a context.
func (ss *SessionStore) Commit(token string, b []byte, expiry time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), ss.timeout)
	defer cancel()
	return ss.CommitCtx(ctx, token, b, expiry)
}

// Delete is DeleteCtx for callers without a context.
func (ss *SessionStore) Delete(token string) error {
	ctx, cancel := context.WithTimeout(context.Background(), ss.timeout)
	defer cancel()
	return ss.DeleteCtx(ctx, token)
}
