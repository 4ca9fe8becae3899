package sqlite

// The waiting room's positions at scale (SPEC §18, docs/SCALE.md):
//
//	go test -run '^$' -bench QueuePosition -benchtime 2000x -count 1 -v ./internal/sqlite/
//
// For queues of 1,000 and 100,000 entries (the latter skipped with -short)
// it joins them (a third before T0), numbers them all with
// NumberQueueStep in batches of booking.QueueNumberBatch (logged and
// reported as number-all-s and number-us/entry), then measures:
//   - read: Store.QueuePosition of a random entry, the point read every
//     visitor makes: its cost does not grow with the queue;
//   - count: counting the entries before a random entry (a range of the
//     position index), what each visitor paid before positions were
//     numbered: it grows with the queue.

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

func BenchmarkQueuePosition(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		if n > 1_000 && testing.Short() {
			continue
		}
		s, o, ids, took := numberedQueue(b, n)
		ctx := context.Background()
		b.Run(fmt.Sprintf("queue=%d/read", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for range b.N {
				if _, ok, err := s.QueuePosition(ctx, o.ID, ids[rng.IntN(len(ids))]); err != nil || !ok {
					b.Fatalf("QueuePosition: %v, %v", ok, err)
				}
			}
			b.ReportMetric(took.Seconds(), "number-all-s")
			b.ReportMetric(float64(took.Nanoseconds())/1e3/float64(n), "number-us/entry")
		})
		b.Run(fmt.Sprintf("queue=%d/count", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for range b.N {
				var k int
				if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM queue_entries INDEXED BY queue_position
					WHERE onsale_id = ? AND position < ?`, o.ID, rng.IntN(n)).Scan(&k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// queueT0 is the opening of the on-sales of seedQueue.
var queueT0 = time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)

// seedQueue is a store with an on-sale opening at queueT0 whose queue has n
// entries, not numbered, joined a millisecond apart, the first third
// before T0, and the entries' join ids in join order.
func seedQueue(tb testing.TB, n int) (*Store, booking.OnSale, []string) {
	tb.Helper()
	return seedQueueEarly(tb, n, n/3)
}

// seedQueueEarly is seedQueue with the first early entries before T0.
func seedQueueEarly(tb testing.TB, n, early int) (*Store, booking.OnSale, []string) {
	tb.Helper()
	ctx := context.Background()
	s, _ := mustOpen(tb)
	t0 := queueT0
	show, seats := testShow("show-q", 2, 2)
	show.StartsAt = t0.Add(24 * time.Hour)
	if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
		tb.Fatal(err)
	}
	key := make([]byte, 32)
	o, err := booking.CreateOnSaleStep(ctx, s, func() time.Time { return t0.Add(-time.Hour) }, booking.OnSaleRequest{
		ID: booking.NewID(), Key: key, Name: "Endgame", OpensAt: t0, Rate: 1000, ShowIDs: []string{show.ID},
	})
	if err != nil {
		tb.Fatal(err)
	}
	// The joins, in one transaction: a third before T0.
	ids := make([]string, n)
	start := time.Now()
	err = s.inTx(ctx, "seed queue", func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO queue_entries (onsale_id, join_id, joined_at, before_open, rank) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range n {
			e := booking.NewQueueEntry(o, booking.NewID(), t0.Add(time.Duration(i-early)*time.Millisecond))
			ids[i] = e.JoinID
			if _, err := st.ExecContext(ctx, e.OnSaleID, e.JoinID, e.JoinedAt.UnixNano(), e.Before, e.Rank); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Logf("joined %d in %v", n, time.Since(start).Round(time.Millisecond))
	return s, o, ids
}

// numberedQueue is seedQueue's store with the queue numbered, and how long
// numbering it took.
func numberedQueue(tb testing.TB, n int) (*Store, booking.OnSale, []string, time.Duration) {
	tb.Helper()
	ctx := context.Background()
	s, o, ids := seedQueue(tb, n)
	start := time.Now()
	settled := func() time.Time { return queueT0.Add(booking.SettlingMargin) }
	total, steps := 0, 0
	for {
		k, err := booking.NumberQueueStep(ctx, s, settled, o.ID, booking.QueueNumberBatch)
		if err != nil {
			tb.Fatal(err)
		}
		if k == 0 {
			break
		}
		total, steps = total+k, steps+1
	}
	took := time.Since(start)
	if total != n {
		tb.Fatalf("numbered %d of %d", total, n)
	}
	if want := (n + booking.QueueNumberBatch - 1) / booking.QueueNumberBatch; steps != want {
		tb.Errorf("numbered in %d steps, want %d", steps, want)
	}
	var lo, hi, count int
	if err := s.read.QueryRowContext(ctx, `SELECT min(position), max(position), count(DISTINCT position) FROM queue_entries WHERE onsale_id = ?`, o.ID).
		Scan(&lo, &hi, &count); err != nil || lo != 0 || hi != n-1 || count != n {
		tb.Fatalf("positions from %d to %d, %d distinct, %v; want 0 to %d, %d", lo, hi, count, err, n-1, n)
	}
	tb.Logf("numbered %d in %d steps in %v (%.1f µs an entry)", n, steps, took.Round(time.Millisecond), float64(took.Microseconds())/float64(n))
	return s, o, ids, took
}
