package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// TestCancelledHoldsLeaveTheDatabaseWritable cancels holds at random points
// inside their transaction (a request's deadline, a client that left) and
// checks after each that a plain hold still goes through and that no write
// connection was leaked. A transaction left open on a discarded connection
// would keep SQLite's write lock and stop every writer of every process
// sharing the file; a connection that cannot be closed keeps its file
// descriptors.
func TestCancelledHoldsLeaveTheDatabaseWritable(t *testing.T) {
	s, path := mustOpen(t, func(o *options) { o.checkpointEvery = 0; o.sessionGCEvery = 0 })
	mustCreateShow(t, s, "s1", 10, 10)
	before := openFiles(t, path)
	rounds := 1500
	if testing.Short() {
		rounds = 300
	}
	for i := range rounds {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rand.N(150))*time.Microsecond)
		seat := fmt.Sprintf("%c%d", 'A'+rand.N(10), 1+rand.N(10))
		err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", fmt.Sprintf("o%d", i%50), seat), at(0).Rules)
		cancel()
		var taken *booking.UnavailableError
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.As(err, &taken) {
			t.Fatalf("round %d: cancelled hold: unexpected error %v", i, err)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		err = booking.HoldSeatsStep(ctx, s, at(time.Duration(i+1)*time.Hour).Clock(), hold("s1", "clean", fmt.Sprintf("A%d", 1+i%10)), at(time.Duration(i+1)*time.Hour).Rules)
		cancel()
		if err != nil && !errors.As(err, &taken) {
			t.Fatalf("round %d: a hold after a cancelled one failed: %v", i, err)
		}
	}
	if after := openFiles(t, path); after > before+6 {
		t.Errorf("open files on the database went from %d to %d: write connections leak", before, after)
	}
}

// openFiles counts this process's open descriptors on the database's files
// (the file, -wal and -shm).
func openFiles(t *testing.T, path string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot list open files: %v", err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && strings.Contains(target, filepath.Base(path)) {
			n++
		}
	}
	return n
}
