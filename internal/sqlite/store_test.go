package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/booking/storetest"
	"boxoffice/internal/sqlite"
)

// harness makes stores on files in the test's temporary directory; the DSN
// other processes open is the file's path. The suite closes the stores,
// t.TempDir removes the files.
var harness = storetest.Harness{
	New: func(t *testing.T) booking.Store {
		_, s := openTemp(t)
		return s
	},
	Shared: openTemp,
	Open: func(ctx context.Context, dsn string) (booking.Store, error) {
		return sqlite.Open(ctx, dsn)
	},
}

func openTemp(t *testing.T) (string, booking.Store) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "boxoffice.db")
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("sqlite.Open(%s): %v", path, err)
	}
	return path, s
}

func TestMain(m *testing.M) {
	storetest.RunWorkerIfRequested(harness)
	os.Exit(m.Run())
}

func TestConformance(t *testing.T) { storetest.Run(t, harness) }
