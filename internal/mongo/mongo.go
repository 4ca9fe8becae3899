// Package mongo is the MongoDB adapter of the booking.Store port, the one
// production runs on (SPEC §3). It stores one document per seat of a show and
// makes every multi-document step atomic with a transaction
// (Session.WithTransaction, snapshot read concern, majority write concern).
// Every step is written once in the booking package, over the transaction
// port (tx.go and the *_tx.go files translate its reads and writes); the
// seat rule is also expressed once as a query filter (seat.go). Two steps
// racing for one seat cannot both win: each writes the seat, so the loser's
// write conflicts with the winner's and its transaction runs again against
// the winner's result. Every transactional write of a seat changes the
// document (an update that changed nothing would not conflict), and no
// seat is written outside a transaction but a new show's upserts.
//
// Transactions need a replica set (or a sharded cluster); Open refuses a
// standalone server with a message saying so.
package mongo

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	"boxoffice/internal/booking"
)

// DefaultDatabase is the database used when the URI names none.
const DefaultDatabase = "boxoffice"

// TxTimeout bounds one atomic step's callback runs, retries included.
// WithTransaction retries write conflicts (TransientTransactionError) for up
// to its own limit (clientTimeout, as Open sets it); a moviegoer waiting on a
// Hold button should get an answer, even a failure, long before that. An
// operation that runs into this deadline is not retried. The commit is the
// exception: the driver runs it without this deadline, and each commit
// attempt is bounded by clientTimeout instead.
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
	colAdmins        = "admins"
	colCallbacks     = "payment_callbacks"
	colTheatres      = "theatres"
	colScreens       = "screens"
	colMovies        = "movies"
	// colAddressGuards has one document per show and client address that
	// held seats, and per show and row: holds from one address, or into
	// one row, write it, so that two at once conflict and the retried one
	// counts the other (checkHeldPerAddress, checkGaps).
	colAddressGuards = "address_guards"
	// colDeletedShows keeps the id of each deleted show (DeleteShow), so
	// that CreateShow refuses it (booking.ErrShowDeleted).
	colDeletedShows = "deleted_shows"
	// colOnSales are the on-sales (SPEC §18), each with the ids of the
	// shows it covers and its admission segments.
	colOnSales = "onsales"
	// colQueue is the on-sales' queues: one document a join.
	colQueue = "queue_entries"
	// colTicketTypes has one document per theatre with types: its types
	// in order (SPEC §15).
	colTicketTypes = "ticket_types"
	// colPriceCards are the theatres' price cards, each with its cells.
	colPriceCards = "price_cards"
	// colShowPrices has one document per show made with a price table:
	// its types and cells, copied when it was made.
	colShowPrices = "show_prices"
)

// Store is a booking.Store on a MongoDB replica set. It is safe for concurrent
// use, and any number of processes may share one database.
type Store struct {
	client *mongo.Client
	db     *mongo.Database
	// txTimeout is TxTimeout; tests may shorten it.
	txTimeout time.Duration
	// lang is DEFAULT_LANG, which Migrate gives the bookings stored
	// without a language (migrateBookingLang); "" is English.
	lang string
}

// Option is a setting of Open.
type Option func(*Store)

// DefaultLang is DEFAULT_LANG, the language Open gives the bookings
// stored before bookings had one (SPEC §15, existing data; §19).
func DefaultLang(lang string) Option { return func(s *Store) { s.lang = lang } }

var _ booking.Store = (*Store)(nil)

// Open connects to the deployment at uri (mongodb:// or mongodb+srv://) and
// uses the database named in its path, DefaultDatabase when there is none.
// It fails when the deployment cannot be reached within ctx or is not a
// replica set or sharded cluster, because the store's atomic steps are
// multi-document transactions. It then runs Migrate, so that every caller
// (serve, seed, migrate, tests) works on the collections and indexes the
// store relies on, such as the partial unique index that allows one active
// hold per session and show; Migrate is idempotent and safe to run from
// several processes at once.
func Open(ctx context.Context, uri string, opts ...Option) (*Store, error) {
	name, err := databaseName(uri)
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, uri, name)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		o(s)
	}
	if err := s.Migrate(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// databaseName is the database a URI names, DefaultDatabase when none. It
// reads only the path, with net/url, and leaves the rest of the URI to
// mongo.Connect: no DNS lookup for mongodb+srv:// here, and no dependency on
// the driver's x/ packages, which carry no stability promise. The host list
// (a,b:27018,c) is not a valid URL host, so it is replaced before parsing;
// credentials must be percent-encoded in a MongoDB URI, so the first '/' or
// '?' after the scheme ends the host list.
func databaseName(uri string) (string, error) {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || (scheme != "mongodb" && scheme != "mongodb+srv") {
		return "", errors.New("mongo: open: invalid URI: it must start with mongodb:// or mongodb+srv://")
	}
	hosts, tail := rest, ""
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		hosts, tail = rest[:i], rest[i:]
	}
	if hosts == "" {
		return "", errors.New("mongo: open: invalid URI: it names no host")
	}
	u, err := url.Parse("mongodb://host" + tail)
	if err != nil {
		return "", fmt.Errorf("mongo: open: invalid URI: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" {
		return DefaultDatabase, nil
	}
	// What MongoDB refuses in a database name (on any platform).
	if strings.ContainsAny(name, "/\\. \"$\x00") || len(name) > 63 {
		return "", fmt.Errorf("mongo: open: invalid URI: %q is not a valid database name", name)
	}
	return name, nil
}

// open is Open with the database name given, so that tests can use a fresh
// database on the deployment that MONGODB_URI names.
func open(ctx context.Context, uri, dbName string) (*Store, error) {
	opts, err := clientOptions(uri)
	if err != nil {
		return nil, err
	}
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

// clientOptions are the client settings of a store on uri, checked before
// anything connects. Defaults first, the URI after: settings in the URI (w=,
// readPreference=, …) win, as an operator expects, except those refused
// here. Majority is also the server's default write concern since 5.0;
// saying it here keeps writes outside transactions (seats of a new show,
// sessions) durable across a failover on older or differently configured
// deployments.
//
// clientTimeout bounds every operation whose context has no deadline, and,
// above all, each commitTransaction: WithTransaction commits with a context
// that ignores ctx's deadline, so without a client timeout a majority commit
// that cannot be acknowledged would wait forever. An operator may change it
// with timeoutMS= in the URI, within what timeoutError allows.
func clientOptions(uri string) (*options.ClientOptions, error) {
	opts := options.Client().
		SetWriteConcern(writeconcern.Majority()).
		SetReadPreference(readpref.Primary()).
		SetTimeout(clientTimeout).
		SetAppName("boxoffice").
		ApplyURI(uri)
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("mongo: open: invalid URI: %w", err)
	}
	if err := readPreferenceError(opts.ReadPreference); err != nil {
		return nil, err
	}
	if err := timeoutError(opts.Timeout); err != nil {
		return nil, err
	}
	return opts, nil
}

// clientTimeout is the client-wide operation timeout (CSOT) Open sets
// unless the URI has timeoutMS=. It bounds each commit of a transaction,
// which TxTimeout cannot (see clientOptions), and makes WithTransaction's
// own overall limit this instead of 120 s. Operations whose context has a
// deadline keep that deadline.
const clientTimeout = 15 * time.Second

// timeoutError refuses a client timeout (timeoutMS= in the URI) shorter than
// TxTimeout. WithTransaction takes its retry budget from the client timeout,
// not from the context (Session.WithTransaction in the driver's
// mongo/session.go: a timer of client.timeout, 120 s only when none is set):
// after a failed attempt it runs the callback again on a
// TransientTransactionError, such as a write conflict with another hold,
// only while that timer has not fired. A timeout shorter than TxTimeout
// therefore cuts the retries short of the step's own deadline, and
// timeoutMS=0, which means "no timeout" to every other operation, fires the
// timer at once: every step gets one attempt, and two people holding at once
// get an error instead of a retry. It would also leave each commit without
// any bound (see clientTimeout). Longer values are accepted: they only
// lengthen how long a commit that cannot be acknowledged is waited for.
func timeoutError(timeout *time.Duration) error {
	if timeout == nil || *timeout >= TxTimeout {
		return nil
	}
	return fmt.Errorf("mongo: open: the URI sets timeoutMS=%d, below the %d ms a transaction step may take: "+
		"the driver retries a transaction that conflicted with another only within timeoutMS (timeoutMS=0 means one attempt, "+
		"not no limit); remove timeoutMS from DATABASE_URL (the default is %d) or set it to at least %d",
		timeout.Milliseconds(), TxTimeout.Milliseconds(), clientTimeout.Milliseconds(), TxTimeout.Milliseconds())
}

// readPreferenceError refuses a read preference other than primary.
// Transactions always read from the primary, but Hold, ActiveHold, Seats,
// Payment and Booking do not run in one: on a secondary they could miss a
// hold that was just made, and the checkout page after a hold would be a 404.
func readPreferenceError(rp *readpref.ReadPref) error {
	if rp == nil || rp.Mode() == readpref.PrimaryMode {
		return nil
	}
	return fmt.Errorf("mongo: open: the URI sets readPreference=%s; boxoffice must read its own writes, "+
		"which only the primary guarantees: remove readPreference from DATABASE_URL (primary is the default)", rp.Mode())
}

// helloReply is the part of the hello command's answer that tells what kind
// of deployment the client is connected to.
type helloReply struct {
	SetName           string `bson:"setName"`           // replica set members
	Msg               string `bson:"msg"`               // "isdbgrid" from mongos
	IsReplicaSet      bool   `bson:"isreplicaset"`      // a --replSet member before rs.initiate()
	IsWritablePrimary bool   `bson:"isWritablePrimary"` // the primary (or a mongos)
}

func (s *Store) checkTopology(ctx context.Context) error {
	var h helloReply
	if err := s.client.Database("admin").RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&h); err != nil {
		return fmt.Errorf("mongo: open: cannot reach the database (if it is a new replica set with "+
			"replicaSet= in the URI, run rs.initiate() once; see docs/MONGODB.md): %w", err)
	}
	return topologyError(h)
}

// errStandalone is what Open answers for a server that is not part of a
// replica set.
var errStandalone = errors.New("mongo: open: the MongoDB server is a standalone server, not a replica set; " +
	"boxoffice needs multi-document transactions, which MongoDB offers only on a replica set or a sharded cluster. " +
	"Start mongod with --replSet rs0, run rs.initiate() once, and add ?replicaSet=rs0 to DATABASE_URL " +
	"(a single-node replica set is enough for development; see docs/MONGODB.md)")

// errNotInitiated is what Open answers for a mongod started with --replSet
// whose replica set was never initiated: it answers hello with isreplicaset
// but no setName.
var errNotInitiated = errors.New("mongo: open: the MongoDB server was started as a replica set member " +
	"(--replSet) but the replica set is not initiated yet; run rs.initiate() once (mongosh --eval \"rs.initiate()\"), " +
	"then add ?replicaSet=<its name> to DATABASE_URL (see docs/MONGODB.md)")

// errNotPrimary is what Open answers when it is connected directly
// (directConnection=true) to a replica set member that is not the primary:
// every transaction there would fail with "not primary".
var errNotPrimary = errors.New("mongo: open: connected directly to a replica set member that is not the primary; " +
	"boxoffice writes in transactions, which only the primary accepts: remove directConnection=true " +
	"and add ?replicaSet=<its name> to DATABASE_URL, so that the driver finds the primary " +
	"(if the URI already does, the primary stepped down as boxoffice started: try again)")

// topologyError accepts the primary of a replica set (setName and
// isWritablePrimary) and a mongos router (msg "isdbgrid"), and refuses
// anything else with a message that says what to do. Without
// directConnection the driver sends hello to the primary, so a secondary is
// seen only over a direct connection.
func topologyError(h helloReply) error {
	switch {
	case h.Msg == "isdbgrid":
		return nil
	case h.SetName != "" && h.IsWritablePrimary:
		return nil
	case h.SetName != "":
		return errNotPrimary
	case h.IsReplicaSet:
		return errNotInitiated
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

// Server error codes the adapter tells apart. Duplicate keys are recognised
// with mongo.IsDuplicateKeyError.
const (
	codeIndexNotFound   = 27
	codeNamespaceExists = 48
)

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
