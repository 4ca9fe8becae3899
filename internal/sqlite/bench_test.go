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
//   - bare: BEGIN IMMEDIATE; UPDATE seats … WHERE show_id=? AND seat_id IN
//     (?,?,?,?); COMMIT on the same write connection, same seats: what any
//     hold must at least cost;
//   - seatmap: Store.Seats of a 500-seat show.
//
// Each reports p50 and p99 latency besides ns/op. docs/PERFORMANCE.md has
// the numbers.

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"boxoffice/internal/booking"
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
		if err := s.CreateShow(ctx, show, seats); err != nil {
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
	return show, block, booking.Moment{Now: t0.Add(time.Duration(i) * ttl), TTL: ttl}
}

// latencies records each operation so that the benchmark can report p50
// and p99 next to the mean.
type latencies []time.Duration

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	slices.Sort(l)
	b.ReportMetric(float64(l[len(l)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(l[len(l)*99/100].Nanoseconds()), "p99-ns")
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
			b.Run("bare", db.benchBare)
			b.Run("seatmap", db.benchSeatMap)
		})
	}
}

func (db *benchDB) benchHold(b *testing.B) {
	ctx := context.Background()
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		show, seats, m := db.next()
		start := time.Now()
		h := newBenchHold(show, seats, m.Now)
		if _, err := db.s.HoldSeats(ctx, h, m); err != nil {
			b.Fatalf("hold %d: %v", i, err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	lat.report(b)
}

func (db *benchDB) benchBare(b *testing.B) {
	ctx := context.Background()
	stmt, err := db.s.write.PrepareContext(ctx, `UPDATE seats SET status = 'locked', hold_id = ?, locked_at = ?
		WHERE show_id = ? AND seat_id IN (?,?,?,?)`)
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		show, seats, m := db.next()
		start := time.Now()
		id := booking.NewID()
		tx, err := db.s.write.BeginTx(ctx, nil) // BEGIN IMMEDIATE
		if err != nil {
			b.Fatal(err)
		}
		res, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, id, m.Now.UnixNano(), show, seats[0], seats[1], seats[2], seats[3])
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != benchBlock {
			b.Fatalf("bare update locked %d seats", n)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	lat.report(b)
}

func (db *benchDB) benchSeatMap(b *testing.B) {
	ctx := context.Background()
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		seats, err := db.s.Seats(ctx, db.shows[(i*7919)%len(db.shows)])
		if err != nil || len(seats) != benchRows*benchCols {
			b.Fatalf("Seats: %d seats, %v", len(seats), err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	lat.report(b)
}

// newBenchHold is the hold of a fresh visitor at now, as the Service would
// make it.
func newBenchHold(show string, seats []string, now time.Time) booking.Hold {
	return booking.Hold{ID: booking.NewHoldID(now), ShowID: show, Owner: booking.NewID(), SeatIDs: seats}
}
