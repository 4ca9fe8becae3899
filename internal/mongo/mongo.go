// Package mongo is the MongoDB adapter of the booking.Store port, the one
// production runs on (SPEC §3). It stores one document per seat of a show and
// makes every multi-document step atomic with a transaction
// (Session.WithTransaction, snapshot read concern, majority write concern).
// Inside a transaction the decision comes from the booking package's rules;
// the seat rule is also expressed once as a query filter (seat.go), and every
// write that takes a seat is conditional on it, so that two processes racing
// for one seat cannot both win: the loser's write conflicts and its
// transaction retries against the winner's result.
//
// Transactions need a replica set (or a sharded cluster); Open refuses a
// standalone server with a message saying so.
package mongo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"

	"boxoffice/internal/booking"
)

// DefaultDatabase is the database used when the URI names none.
const DefaultDatabase = "boxoffice"

// TxTimeout bounds one atomic step, retries included. WithTransaction retries
// write conflicts (TransientTransactionError) for up to 120 s by default; a
// moviegoer waiting on a Hold button should get an answer, even a failure,
// long before that. An operation that runs into this deadline is not retried.
const TxTimeout = 5 * time.Second

// Collection names.
const (
	colShows         = "shows"
	colSeats         = "seats"
	colHolds         = "holds"
	colPayments      = "payments"
	colBookings      = "bookings"
	colPaymentEvents = "payment_events"
	colSessions      = "sessions"
)

// Store is a booking.Store on a MongoDB replica set. It is safe for concurrent
// use, and any number of processes may share one database.
type Store struct {
	client *mongo.Client
	db     *mongo.Database
	// txTimeout is TxTimeout; tests may shorten it.
	txTimeout time.Duration
}

var _ booking.Store = (*Store)(nil)

// Open connects to the deployment at uri (mongodb:// or mongodb+srv://) and
// uses the database named in its path, DefaultDatabase when there is none.
// It fails when the deployment cannot be reached within ctx or is not a
// replica set or sharded cluster, because the store's atomic steps are
// multi-document transactions. Call Migrate before first use.
func Open(ctx context.Context, uri string) (*Store, error) {
	name, err := databaseName(uri)
	if err != nil {
		return nil, err
	}
	return open(ctx, uri, name)
}

// databaseName is the database a URI names, DefaultDatabase when none.
func databaseName(uri string) (string, error) {
	cs, err := connstring.ParseAndValidate(uri)
	if err != nil {
		return "", fmt.Errorf("mongo: open: invalid URI: %w", err)
	}
	if cs.Database == "" {
		return DefaultDatabase, nil
	}
	return cs.Database, nil
}

// open is Open with the database name given, so that tests can use a fresh
// database on the deployment that MONGODB_URI names.
func open(ctx context.Context, uri, dbName string) (*Store, error) {
	// Defaults first, the URI after: settings in the URI (w=, readPreference=,
	// …) win, as an operator expects. Majority is also the server's default
	// write concern since 5.0; saying it here keeps writes outside
	// transactions (seats of a new show, sessions) durable across a failover
	// on older or differently configured deployments.
	opts := options.Client().
		SetWriteConcern(writeconcern.Majority()).
		SetReadPreference(readpref.Primary()).
		SetAppName("boxoffice").
		ApplyURI(uri)
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("mongo: open: %w", err)
	}
	s := &Store{client: client, db: client.Database(dbName), txTimeout: TxTimeout}
	if err := s.checkTopology(ctx); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, err
	}
	return s, nil
}

// helloReply is the part of the hello command's answer that tells what kind
// of deployment the client is connected to.
type helloReply struct {
	SetName string `bson:"setName"` // replica set members
	Msg     string `bson:"msg"`     // "isdbgrid" from mongos
}

func (s *Store) checkTopology(ctx context.Context) error {
	var h helloReply
	if err := s.client.Database("admin").RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&h); err != nil {
		return fmt.Errorf("mongo: open: cannot reach the database: %w", err)
	}
	return topologyError(h)
}

// errStandalone is what Open answers for a server that is not part of a
// replica set.
var errStandalone = errors.New("mongo: open: the MongoDB server is a standalone server, not a replica set; " +
	"boxoffice needs multi-document transactions, which MongoDB offers only on a replica set or a sharded cluster. " +
	"Start mongod with --replSet rs0, run rs.initiate() once, and add ?replicaSet=rs0 to DATABASE_URL " +
	"(a single-node replica set is enough for development; see docs/MONGODB.md)")

// topologyError accepts a replica set member (setName) and a mongos router
// (msg "isdbgrid") and refuses anything else.
func topologyError(h helloReply) error {
	if h.SetName != "" || h.Msg == "isdbgrid" {
		return nil
	}
	return errStandalone
}

// Close disconnects from the deployment.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.client.Disconnect(ctx); err != nil {
		return fmt.Errorf("mongo: close: %w", err)
	}
	return nil
}

// Ping reports whether the primary answers: readiness means being able to
// take holds, which only the primary can.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.client.Ping(ctx, readpref.Primary()); err != nil {
		return fmt.Errorf("mongo: ping: %w", err)
	}
	return nil
}

// Database returns the database the store uses (for tools and tests).
func (s *Store) Database() *mongo.Database { return s.db }

func (s *Store) col(name string) *mongo.Collection { return s.db.Collection(name) }

// txOptions are the settings of every transaction. Snapshot read concern
// makes all reads of one attempt see one committed point in time, so the
// decision taken from them is consistent; a write to a document that changed
// after that point fails with WriteConflict and the attempt is retried, which
// is what makes a read-then-conditional-write safe against write skew.
// Majority write concern makes a commit survive a failover: a hold or a
// booking acknowledged to a person is not rolled back.
var txOptions = options.Transaction().
	SetReadConcern(readconcern.Snapshot()).
	SetWriteConcern(writeconcern.Majority()).
	SetReadPreference(readpref.Primary())

// inTx runs fn in one transaction and returns the result of the attempt that
// committed. The driver retries fn on TransientTransactionError (a write
// conflict with a concurrent transaction, a failover) and retries the commit
// on UnknownTransactionCommitResult, so fn must be idempotent: it only talks
// to the database through the ctx it is given and returns its result rather
// than assigning it to variables outside. The whole step, retries included,
// is bounded by the store's transaction timeout.
func inTx[T any](ctx context.Context, s *Store, fn func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	ctx, cancel := context.WithTimeout(ctx, s.txTimeout)
	defer cancel()
	sess, err := s.client.StartSession()
	if err != nil {
		return zero, err
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	res, err := sess.WithTransaction(ctx, func(ctx context.Context) (any, error) {
		return fn(ctx)
	}, txOptions)
	if err != nil {
		return zero, err
	}
	v, ok := res.(T)
	if !ok {
		return zero, fmt.Errorf("transaction returned %T", res)
	}
	return v, nil
}

// Migrate creates the collections and their indexes. It is idempotent and
// safe to run from several processes at once.
func (s *Store) Migrate(ctx context.Context) error {
	for _, name := range []string{colShows, colSeats, colHolds, colPayments, colBookings, colPaymentEvents, colSessions} {
		err := s.db.CreateCollection(ctx, name)
		if err != nil && !hasCode(err, codeNamespaceExists) {
			return fmt.Errorf("mongo: migrate: create %s: %w", name, err)
		}
	}
	for name, models := range indexes() {
		if _, err := s.col(name).Indexes().CreateMany(ctx, models); err != nil {
			return fmt.Errorf("mongo: migrate: indexes of %s: %w", name, err)
		}
	}
	return nil
}

// indexes are the indexes of each collection. There is deliberately no TTL
// index on seats: a lapsed lock is decided at read time (SPEC §1).
func indexes() map[string][]mongo.IndexModel {
	idx := func(name string, keys bson.D) mongo.IndexModel {
		return mongo.IndexModel{Keys: keys, Options: options.Index().SetName(name)}
	}
	unique := func(m mongo.IndexModel) mongo.IndexModel {
		m.Options.SetUnique(true)
		return m
	}
	return map[string][]mongo.IndexModel{
		colShows: {
			idx("starts_at", bson.D{{Key: "starts_at", Value: 1}, {Key: "_id", Value: 1}}),
		},
		colSeats: {
			// The seat key: every seat operation filters by it.
			unique(idx("show_seat", bson.D{{Key: "show_id", Value: 1}, {Key: "seat_id", Value: 1}})),
			// Releasing a hold finds the seats it still locks.
			idx("show_hold", bson.D{{Key: "show_id", Value: 1}, {Key: "hold_id", Value: 1}}),
			// Seat maps are read in map order without an in-memory sort,
			// also for the very large shows `boxoffice seed` makes.
			idx("show_grid", bson.D{{Key: "show_id", Value: 1}, {Key: "grid_row", Value: 1}, {Key: "grid_col", Value: 1}}),
		},
		colHolds: {
			// At most one active hold per session and show (SPEC §2), also
			// when two holds of one session race: they touch different
			// seats, so only this index makes them collide.
			mongo.IndexModel{
				Keys: bson.D{{Key: "show_id", Value: 1}, {Key: "owner", Value: 1}, {Key: "state", Value: 1}},
				Options: options.Index().SetName("show_owner_active").SetUnique(true).
					SetPartialFilterExpression(bson.D{{Key: "state", Value: string(booking.HoldActive)}}),
			},
		},
		colPayments: {
			// One payment per hold: a second would pay twice for one seat.
			unique(idx("hold", bson.D{{Key: "hold_id", Value: 1}})),
		},
		colBookings: {
			idx("hold", bson.D{{Key: "hold_id", Value: 1}}),
		},
		colSessions: {
			// The TTL monitor deletes expired sessions (about once a
			// minute); Find ignores them in the meantime.
			mongo.IndexModel{
				Keys:    bson.D{{Key: "expiry", Value: 1}},
				Options: options.Index().SetName("expiry_ttl").SetExpireAfterSeconds(0),
			},
		},
	}
}

// Server error codes the adapter tells apart. Duplicate keys are recognised
// with mongo.IsDuplicateKeyError.
const codeNamespaceExists = 48

func hasCode(err error, code int) bool {
	var se mongo.ServerError
	return errors.As(err, &se) && se.HasErrorCode(code)
}

// nanos stores a time as int64 Unix nanoseconds: exact, so that the seat
// rule's comparison in a filter and in Go (booking.LockLapsed) agree to the
// nanosecond, which a BSON date (milliseconds) would not.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromNanos is the inverse of nanos, in UTC like booking.SystemClock.
func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// notFound translates mongo.ErrNoDocuments to the domain's sentinel and wraps
// anything else with op.
func notFound(err error, sentinel error, op string) error {
	if errors.Is(err, mongo.ErrNoDocuments) {
		return sentinel
	}
	return fmt.Errorf("mongo: %s: %w", op, err)
}

// noDoc is notFound for errors that leave a transaction's callback, where
// the prefix is added once, by wrap, outside.
func noDoc(err error, sentinel error, op string) error {
	if errors.Is(err, mongo.ErrNoDocuments) {
		return sentinel
	}
	return fmt.Errorf("%s: %w", op, err)
}

// wrap prefixes a driver error with the operation, and leaves the domain's
// own errors as they are so that callers can tell them apart.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var be *booking.Error
	var ue *booking.UnavailableError
	if errors.As(err, &be) || errors.As(err, &ue) {
		return err
	}
	return fmt.Errorf("mongo: %s: %w", op, err)
}
