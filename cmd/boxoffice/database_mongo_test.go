package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
	"boxoffice/internal/mongo"
)

// TestOpenDatabaseMigratesMongo: the store `boxoffice serve` opens on
// MongoDB has its indexes without `boxoffice migrate`, above all
// show_owner_active, the only guard against two active holds of one session
// on disjoint seats. It needs MONGODB_URI (a replica set) and skips, saying
// so, without it; REQUIRE_MONGO=1 makes that a failure.
func TestOpenDatabaseMigratesMongo(t *testing.T) {
	base := os.Getenv("MONGODB_URI")
	if base == "" {
		const msg = "MONGODB_URI is not set: the MongoDB test of openDatabase NOT run; set MONGODB_URI to a replica set to run it"
		if os.Getenv("REQUIRE_MONGO") == "1" {
			t.Fatal("REQUIRE_MONGO=1 but " + msg)
		}
		t.Skip(msg)
	}
	uri := withDatabase(t, base, "boxoffice_cmdtest_"+booking.NewID()[:16])
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := openDatabase(ctx, config.Database{Driver: config.DriverMongo, Source: uri, URL: uri}, "en")
	if err != nil {
		t.Fatalf("openDatabase: %v", err)
	}
	defer db.Close()
	s, ok := db.Store.(*mongo.Store)
	if !ok {
		t.Fatalf("openDatabase on a MongoDB URI returned a %T", db.Store)
	}
	defer func() {
		if err := s.Database().Drop(context.WithoutCancel(ctx)); err != nil {
			t.Errorf("dropping the test database: %v", err)
		}
	}()
	cur, err := s.Database().Collection("holds").Indexes().List(ctx)
	if err != nil {
		t.Fatalf("list indexes of holds: %v", err)
	}
	var specs []bson.M
	if err := cur.All(ctx, &specs); err != nil {
		t.Fatalf("list indexes of holds: %v", err)
	}
	for _, spec := range specs {
		if spec["name"] == "show_owner_active" && spec["unique"] == true {
			return
		}
	}
	t.Errorf("after openDatabase, holds has no unique show_owner_active index: %v", specs)
}

// withDatabase replaces the database in a mongodb:// or mongodb+srv:// URI,
// keeping hosts, credentials and options.
func withDatabase(t *testing.T, uri, db string) string {
	t.Helper()
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok {
		t.Fatalf("MONGODB_URI %q is not a MongoDB URI", uri)
	}
	hosts, query := rest, ""
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		hosts = rest[:i]
		if q := strings.IndexByte(rest[i:], '?'); q >= 0 {
			query = rest[i+q:]
		}
	}
	return scheme + "://" + hosts + "/" + db + query
}
