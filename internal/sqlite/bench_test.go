package sqlite

// Benchmarks of the hot paths against the physical limit of the same file.
//
//	go test -run '^$' -bench . -benchtime 20000x -count 1 ./internal/sqlite/
//
// For each database size (1,000 and 1,000,000 seats; the latter is skipped
// with -short) it measures:
//   - hold: Store.HoldSeats of 4 seats by a fresh owner, cycling over seat
//     blocks and shows, with the clock moved on so that old locks have lapsed
//     and every hold succeeds;
//   - hold-replacing: a hold that replaces the same owner's previous hold
//     for the show, whose seats are still locked (timed: the second hold);
//   - bare: BEGIN IMMEDIATE; UPDATE seats … WHERE show_id=? AND seat_id IN
//     (?,?,?,?); COMMIT on the same write connection, same seats, setting
//     the columns a lock sets to values of the same shape (a time-ordered
//     hold id, a fresh owner, now): what any hold must at least cost;
//   - hold-vs-bare: the two in turns, which cancels the machine's drift;
//     it reports both means and p50s and the ratio of the means;
//   - seatmap: Store.Seats of a 500-seat show.
//
// Each reports p50 and p99 latency besides ns/op.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

const (
	benchRows, benchCols = 20, 25 // 500 seats a show
	benchBlock           = 4      // seats a hold
)

type benchDB struct {
	s      *Store
	shows  []string
	blocks [][]string   // the seat ids of each block of 4 adjacent seats of a show
	step   atomic.Int64 // moves on across runs, so that the clock never goes back
}

// newBenchDB seeds nShows shows of 500 seats through Store.CreateShow.
func newBenchDB(b *testing.B, nShows int) *benchDB {
	b.Helper()
	s, _ := mustOpen(b)
	ctx := context.Background()
	start := time.Now()
	db := &benchDB{s: s}
	for i := range nShows {
		id := fmt.Sprintf("show%05d", i)
		show, seats := testShow(id, benchRows, benchCols)
		if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
			b.Fatal(err)
		}
		db.shows = append(db.shows, id)
	}
	b.Logf("seeded %d seats in %v", nShows*benchRows*benchCols, time.Since(start).Round(time.Millisecond))
	_, seats := testShow("x", benchRows, benchCols)
	for r := range benchRows {
		for c := 0; c+benchBlock <= benchCols; c += benchBlock {
			var ids []string
			for k := range benchBlock {
				ids = append(ids, seats[r*benchCols+c+k].ID)
			}
			db.blocks = append(db.blocks, ids)
		}
	}
	// A server has drawn the map of a show before its holds come, which
	// caches the show's layout (tx.SeatsOf reads the rest).
	for _, id := range db.shows[:min(len(db.shows), layoutCacheShows)] {
		if _, err := s.Seats(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	s.checkpoint(ctx) // start from an empty WAL
	return db
}

// next returns the show and seats of the next hold and a moment at which
// every earlier lock has lapsed. Consecutive holds hit different shows, as
// visitors of a big catalog would.
func (db *benchDB) next() (string, []string, booking.Moment) {
	i := int(db.step.Add(1))
	show := db.shows[(i*7919)%len(db.shows)]
	block := db.blocks[(i/len(db.shows))%len(db.blocks)]
	return show, block, booking.Rules{TTL: ttl, AllowGaps: true}.At(t0.Add(time.Duration(i) * ttl))
}

func BenchmarkStore(b *testing.B) {
	for _, size := range []struct {
		name  string
		shows int
	}{{"1k", 2}, {"1M", 2000}} {
		b.Run("seats="+size.name, func(b *testing.B) {
			if size.shows > 100 && testing.Short() {
				b.Skip("1M-seat database skipped in -short mode")
			}
			db := newBenchDB(b, size.shows)
			b.Run("hold", db.benchHold)
			b.Run("hold-replacing", db.benchHoldReplacing)
			b.Run("hold-parallel", db.benchHoldParallel)
			b.Run("bare", db.benchBare)
			b.Run("hold-vs-bare", db.benchHoldVsBare)
			b.Run("seatmap", db.benchSeatMap)
		})
	}
}

func (db *benchDB) benchHold(b *testing.B) {
	ctx := context.Background()
	testkit.Measure(b, func(i int) time.Duration {
		show, seats, m := db.next()
		start := time.Now()
		h := newBenchHold(show, seats, m.Now)
		if err := booking.HoldSeatsStep(ctx, db.s, m.Clock(), h, m.Rules); err != nil {
			b.Fatalf("hold %d: %v", i, err)
		}
		return time.Since(start)
	})
}

// benchHoldParallel runs holds from 16 goroutines at once, as a server's
// requests ask for them, and reports the process's CPU time a hold
// (cpu-ns/op): what Atomically's group commit saves shows here.
func (db *benchDB) benchHoldParallel(b *testing.B) {
	ctx := context.Background()
	b.SetParallelism(16 / runtime.GOMAXPROCS(0))
	var refused atomic.Int64
	before := processCPU(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			show, seats, m := db.next()
			err := booking.HoldSeatsStep(ctx, db.s, m.Clock(), newBenchHold(show, seats, m.Now), m.Rules)
			var ue *booking.UnavailableError
			switch {
			case errors.As(err, &ue):
				refused.Add(1) // a hold of a later moment took the seats first
			case err != nil:
				b.Errorf("hold: %v", err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64((processCPU(b)-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(refused.Load())/float64(b.N), "refused/op")
}

// processCPU is the CPU time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchHoldReplacing measures the hold of a visitor who changes their mind:
// each op first makes a hold untimed, then, timed, the same owner's hold of
// the next block of seats in the same show, which replaces the first while
// its seats are still locked (the path of the load tool's spread mode and
// of a person who picks other seats).
func (db *benchDB) benchHoldReplacing(b *testing.B) {
	ctx := context.Background()
	testkit.Measure(b, func(i int) time.Duration {
		b.StopTimer()
		show, seats, m := db.next()
		step := int(db.step.Load())
		other := db.blocks[(step/len(db.shows)+1)%len(db.blocks)]
		owner := booking.NewID()
		if err := booking.HoldSeatsStep(ctx, db.s, m.Clock(), booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: show, Owner: owner, SeatIDs: seats}, m.Rules); err != nil {
			b.Fatalf("first hold %d: %v", i, err)
		}
		b.StartTimer()
		start := time.Now()
		h := booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: show, Owner: owner, SeatIDs: other}
		if err := booking.HoldSeatsStep(ctx, db.s, m.Clock(), h, m.Rules); err != nil {
			b.Fatalf("replacing hold %d: %v", i, err)
		}
		return time.Since(start)
	})
}

func (db *benchDB) benchBare(b *testing.B) {
	bare := db.prepareBare(b)
	testkit.Measure(b, func(int) time.Duration {
		start := time.Now()
		bare()
		return time.Since(start)
	})
}

// prepareBare returns a function that runs one bare transaction on the
// next seat block: BEGIN IMMEDIATE; UPDATE seats … IN (?,?,?,?); COMMIT.
// It sets hold_owner as a lock does, so that its cost depends on its own
// work rather than on the seats' past: otherwise the seat would keep the
// owner of whoever locked it last, so its seats_hold entry would stay on
// its page when a store hold had locked the seat before and move to
// another page when a bare transaction had, and hold-vs-bare would differ
// on a fresh file and after the hold benchmark (docs/PERFORMANCE.md).
func (db *benchDB) prepareBare(b *testing.B) func() {
	ctx := context.Background()
	stmt, err := db.s.write.PrepareContext(ctx, `UPDATE seats SET status = 'locked', hold_id = ?, hold_owner = ?, locked_at = ?
		WHERE show_id = ? AND seat_id IN (?,?,?,?)`)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stmt.Close() })
	return func() {
		show, seats, m := db.next()
		tx, err := db.s.write.BeginTx(ctx, nil) // BEGIN IMMEDIATE
		if err != nil {
			b.Fatal(err)
		}
		res, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, booking.NewHoldID(m.Now), booking.NewID(), m.Now.UnixNano(), show, seats[0], seats[1], seats[2], seats[3])
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != benchBlock {
			b.Fatalf("bare update locked %d seats", n)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchHoldVsBare runs a store hold and a bare transaction in turn, each on
// its own seat block, and reports both: run apart, the two drift with the
// machine's load by more than their difference between consecutive runs;
// taken in turns, whatever slows one slows the other. Besides
// wall-clock time it measures the CPU time of the benchmark's thread
// (CLOCK_THREAD_CPUTIME_ID, the goroutine locked to it), which another
// process's load barely moves. An op is one of each; hold/bare and
// cpu-hold/bare are the ratios of the means.
func (db *benchDB) benchHoldVsBare(b *testing.B) {
	ctx := context.Background()
	bare := db.prepareBare(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	holds := make([]time.Duration, 0, b.N)
	bares := make([]time.Duration, 0, b.N)
	var holdSum, bareSum, holdCPU, bareCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		show, seats, m := db.next()
		start, startCPU := time.Now(), threadCPU(b)
		if err := booking.HoldSeatsStep(ctx, db.s, m.Clock(), newBenchHold(show, seats, m.Now), m.Rules); err != nil {
			b.Fatalf("hold %d: %v", i, err)
		}
		mid, midCPU := time.Now(), threadCPU(b)
		bare()
		end, endCPU := time.Now(), threadCPU(b)
		holds, bares = append(holds, mid.Sub(start)), append(bares, end.Sub(mid))
		holdSum, bareSum = holdSum+mid.Sub(start), bareSum+end.Sub(mid)
		holdCPU, bareCPU = holdCPU+midCPU-startCPU, bareCPU+endCPU-midCPU
	}
	b.StopTimer()
	slices.Sort(holds)
	slices.Sort(bares)
	perOp := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(perOp(holdSum), "hold-ns")
	b.ReportMetric(perOp(bareSum), "bare-ns")
	b.ReportMetric(float64(holds[len(holds)/2].Nanoseconds()), "hold-p50-ns")
	b.ReportMetric(float64(bares[len(bares)/2].Nanoseconds()), "bare-p50-ns")
	b.ReportMetric(float64(holdSum)/float64(bareSum), "hold/bare")
	b.ReportMetric(perOp(holdCPU), "hold-cpu-ns")
	b.ReportMetric(perOp(bareCPU), "bare-cpu-ns")
	b.ReportMetric(float64(holdCPU)/float64(bareCPU), "cpu-hold/bare")
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}

func (db *benchDB) benchSeatMap(b *testing.B) {
	ctx := context.Background()
	testkit.Measure(b, func(i int) time.Duration {
		start := time.Now()
		seats, err := db.s.Seats(ctx, db.shows[(i*7919)%len(db.shows)])
		if err != nil || len(seats) != benchRows*benchCols {
			b.Fatalf("Seats: %d seats, %v", len(seats), err)
		}
		return time.Since(start)
	})
}

// newBenchHold is the hold of a fresh visitor at now, as the Service would
// make it.
func newBenchHold(show string, seats []string, now time.Time) booking.Hold {
	return booking.Hold{ID: booking.NewHoldID(now), ShowID: show, Owner: booking.NewID(), SeatIDs: seats}
}
