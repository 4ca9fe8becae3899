package mongo

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/booking/storetest"
)

// The MongoDB tests need a replica set, named by MONGODB_URI, e.g.
//
//	MONGODB_URI='mongodb://localhost:27017/?replicaSet=rs0' go test ./internal/mongo
//
// Without it they skip, saying so; CI that must run them sets REQUIRE_MONGO=1
// so that a missing server fails instead of passing silently. Each test gets
// a database of its own, dropped when it ends.

const skipMessage = "MONGODB_URI is not set: MongoDB conformance suite NOT run; " +
	"set MONGODB_URI to a replica set (e.g. mongodb://localhost:27017/?replicaSet=rs0) to run it"

var harness = storetest.Harness{
	New: func(t *testing.T) booking.Store {
		_, s := sharedStore(t)
		return s
	},
	Shared: func(t *testing.T) (string, booking.Store) {
		return sharedStore(t)
	},
	Open: func(ctx context.Context, dsn string) (booking.Store, error) {
		s, err := Open(ctx, dsn)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return s, nil
	},
}

func TestMain(m *testing.M) {
	storetest.RunWorkerIfRequested(harness)
	os.Exit(m.Run())
}

func TestConformance(t *testing.T) {
	mongoURI(t)
	storetest.Run(t, harness)
}

// mongoURI returns MONGODB_URI, skips the test when it is unset, or fails it
// when REQUIRE_MONGO=1 says the MongoDB tests must run.
func mongoURI(tb testing.TB) string {
	tb.Helper()
	uri := os.Getenv("MONGODB_URI")
	if uri == "" {
		if os.Getenv("REQUIRE_MONGO") == "1" {
			tb.Fatal("REQUIRE_MONGO=1 but " + skipMessage)
		}
		tb.Skip(skipMessage)
	}
	return uri
}

// freshDatabase returns a URI naming a new database on MONGODB_URI's
// deployment, dropped when the test ends: after the stores the test opened
// on it are closed, since cleanups run last-in first-out.
func freshDatabase(tb testing.TB) string {
	tb.Helper()
	name := "boxoffice_test_" + booking.NewID()[:16]
	dsn, err := uriWithDatabase(mongoURI(tb), name)
	if err != nil {
		tb.Fatalf("MONGODB_URI: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// open, not Open: no need to migrate a database about to go.
		s, err := open(ctx, dsn, name)
		if err != nil {
			tb.Errorf("dropping test database %s: %v", name, err)
			return
		}
		defer s.Close()
		if err := s.Database().Drop(ctx); err != nil {
			tb.Errorf("dropping test database %s: %v", name, err)
		}
	})
	return dsn
}

// sharedStore opens a store on a fresh database and returns its URI, which
// other processes can open too. It does not call Migrate: Open must have,
// as it does for boxoffice serve.
func sharedStore(tb testing.TB) (string, *Store) {
	tb.Helper()
	dsn := freshDatabase(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, dsn)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return dsn, s
}

// mustOpen is sharedStore for this package's own tests, which close the
// store themselves through t.Cleanup.
func mustOpen(tb testing.TB) *Store {
	tb.Helper()
	_, s := sharedStore(tb)
	tb.Cleanup(func() { s.Close() })
	return s
}

// uriWithDatabase replaces the database in a mongodb:// or mongodb+srv://
// URI, keeping hosts, credentials and options.
func uriWithDatabase(uri, db string) (string, error) {
	i := strings.Index(uri, "://")
	if i < 0 {
		return "", fmt.Errorf("%q is not a MongoDB URI", uri)
	}
	scheme, rest := uri[:i+3], uri[i+3:]
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		return scheme + rest + "/" + db, nil
	}
	hosts, tail := rest[:end], rest[end:]
	query := ""
	if q := strings.IndexByte(tail, '?'); q >= 0 {
		query = tail[q:]
	}
	return scheme + hosts + "/" + db + query, nil
}
