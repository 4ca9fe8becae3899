package sqlite

import (
	"context"
	"database/sql"
	"runtime"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// replacingHoldStatements is how many prepared statements a hold that
// replaces the owner's previous hold runs, gaps allowed and no cap per
// address (../shared/bench/sidebyside.sh's settings), besides BEGIN and
// COMMIT (docs/PERFORMANCE.md, issue 25 item 5).
const replacingHoldStatements = 5

// TestReplacingHoldStatements counts the statements of a replacing hold's
// step, with the show's layout cached as a server has it: a statement
// more is a cost every hold pays (docs/PERFORMANCE.md).
func TestReplacingHoldStatements(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, 10)
	if _, err := s.Seats(ctx, "s1"); err != nil { // caches the layout
		t.Fatal(err)
	}
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o1", "A1", "A2", "A3", "A4"), at(0).Rules); err != nil {
		t.Fatal(err)
	}
	n := 0
	s.stmtHook = func(*sql.Stmt) { n++ }
	err := booking.HoldSeatsStep(ctx, s, at(1).Clock(), hold("s1", "o1", "A3", "A4", "A5", "A6"), at(1).Rules)
	s.stmtHook = nil
	if err != nil {
		t.Fatal(err)
	}
	if n != replacingHoldStatements {
		t.Errorf("a replacing hold ran %d statements, want %d", n, replacingHoldStatements)
	}
	seats, err := s.Seats(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range seats[:10] {
		want := booking.SeatAvailable
		if seat.Number >= 3 && seat.Number <= 6 {
			want = booking.SeatLocked
		}
		if seat.Status != want {
			t.Errorf("seat %s is %s, want %s", seat.ID, seat.Status, want)
		}
	}
}

// BenchmarkReplacingHold measures the store step of a hold that replaces
// the same owner's previous hold (4 seats for 4, two overlapping), as the
// load tool's spread mode makes them, by the CPU time of the benchmark's
// thread (the step runs in the caller's goroutine), with allocations. To
// compare two versions, build each one's test binary and run them in
// turns (docs/PERFORMANCE.md):
//
//	go test -run '^$' -bench ReplacingHold -benchtime 5000x -benchmem ./internal/sqlite/
func BenchmarkReplacingHold(b *testing.B) {
	ctx := context.Background()
	s, _ := mustOpen(b)
	mustCreateShow(b, s, "s1", benchRows, benchCols)
	if _, err := s.Seats(ctx, "s1"); err != nil {
		b.Fatal(err)
	}
	blocks := [][]string{{"A1", "A2", "A3", "A4"}, {"A3", "A4", "A5", "A6"}}
	rules := booking.Rules{TTL: ttl, AllowGaps: true}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	start := threadCPU(b)
	for i := range b.N {
		m := rules.At(t0.Add(time.Duration(i) * time.Millisecond))
		h := booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: "s1", Owner: "o1", SeatIDs: blocks[i%2]}
		if err := booking.HoldSeatsStep(ctx, s, m.Clock(), h, rules); err != nil {
			b.Fatalf("hold %d: %v", i, err)
		}
	}
	b.ReportMetric(float64((threadCPU(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkHoldRead measures a replacing hold's reads in turns, by the
// CPU time of the benchmark's thread: HoldStart then SeatsOf (two
// statements, as before HoldRead) and HoldRead (one), each in a
// transaction of its own on the same file.
//
//	go test -run '^$' -bench HoldRead -benchtime 5000x ./internal/sqlite/
func BenchmarkHoldRead(b *testing.B) {
	ctx := context.Background()
	s, _ := mustOpen(b)
	mustCreateShow(b, s, "s1", benchRows, benchCols)
	if _, err := s.Seats(ctx, "s1"); err != nil {
		b.Fatal(err)
	}
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o1", "A1", "A2", "A3", "A4"), at(0).Rules); err != nil {
		b.Fatal(err)
	}
	ids := []string{"A3", "A4", "A5", "A6"}
	reads := []struct {
		name string
		read func(*tx) (booking.Show, []booking.Hold, []bool, []booking.Seat, error)
		cpu  time.Duration
	}{
		{name: "apart", read: func(t *tx) (booking.Show, []booking.Hold, []bool, []booking.Seat, error) {
			return t.holdReadApart("s1", "o1", ids, false)
		}},
		{name: "at-once", read: func(t *tx) (booking.Show, []booking.Hold, []bool, []booking.Seat, error) {
			return t.HoldRead("s1", "o1", ids, false)
		}},
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range reads {
			r := &reads[i]
			start := threadCPU(b)
			sqlTx, err := s.write.Begin()
			if err != nil {
				b.Fatal(err)
			}
			_, active, _, seats, err := r.read(&tx{s: s, ctx: ctx, tx: sqlTx, now: t0})
			if err != nil || len(active) != 1 || len(seats) != len(ids) {
				b.Fatalf("%s: %d holds, %d seats, %v", r.name, len(active), len(seats), err)
			}
			if err := sqlTx.Rollback(); err != nil {
				b.Fatal(err)
			}
			r.cpu += threadCPU(b) - start
		}
	}
	for _, r := range reads {
		b.ReportMetric(float64(r.cpu.Nanoseconds())/float64(b.N), r.name+"-cpu-ns")
	}
}
