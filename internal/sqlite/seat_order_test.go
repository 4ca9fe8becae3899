package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// TestSeatsInOneGridPlace: seats that share a grid place come back by
// seat_id, in whatever order they were created, from a fresh read and from
// the cached layout alike.
func TestSeatsInOneGridPlace(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	show, _ := testShow("s1", 0, 0)
	mk := func(row string, num, col int) booking.Seat {
		return booking.Seat{ShowID: "s1", ID: row + strconv.Itoa(num), Row: row, Number: num, GridCol: col,
			Category: "Std", Price: 100, Kind: booking.KindStandard}
	}
	// Created against the map order: by place, then by id descending.
	if err := booking.CreateShowStep(ctx, s, time.Now, show, []booking.Seat{mk("C", 3, 1), mk("B", 2, 0), mk("A", 9, 1), mk("A", 1, 0)}); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	want := []string{"A1", "B2", "A9", "C3"}
	for _, read := range []string{"fresh", "cached"} {
		seats, err := s.Seats(ctx, "s1")
		if err != nil {
			t.Fatalf("Seats (%s): %v", read, err)
		}
		var got []string
		for _, st := range seats {
			got = append(got, st.ID)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Seats (%s) not in map order (-want +got):\n%s", read, diff)
		}
	}
	avail, err := s.AvailableSeatIDs(ctx, "s1", at(0))
	if err != nil {
		t.Fatalf("AvailableSeatIDs: %v", err)
	}
	if diff := cmp.Diff(want, avail); diff != "" {
		t.Errorf("AvailableSeatIDs not in map order (-want +got):\n%s", diff)
	}
}

// TestMapOrderPlans: the map-order queries read one range of the primary
// key, the show's, and sort only it (mapOrderSQL says why there is no index
// in map order); never a scan of every show's seats.
func TestMapOrderPlans(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, 4)
	for name, q := range map[string]struct {
		sql  string
		args []any
	}{
		"seats":     {seatsSQL, []any{"s1"}},
		"available": {availableSQL, []any{"s1", cutoff(at(0))}},
	} {
		plan := queryPlan(t, s, q.sql, q.args...)
		if len(plan) == 0 || plan[0] != "SEARCH seats USING PRIMARY KEY (show_id=?)" {
			t.Errorf("%s: query plan %q, want a search of the primary key by show_id", name, plan)
		}
		for _, step := range plan[1:] {
			if step != "USE TEMP B-TREE FOR ORDER BY" {
				t.Errorf("%s: query plan %q has a step besides the primary key search and the sort", name, plan)
			}
		}
	}
}

// TestGapPlan: the gap check reads the rows of the hold's seats through
// seats_by_place, not every seat of the show.
func TestGapPlan(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, 4)
	plan := queryPlan(t, s, holdRowsSQL, "s1", `["A1","B2"]`)
	if len(plan) == 0 || !strings.HasPrefix(plan[0], "SEARCH seats USING INDEX seats_by_place (show_id=? AND grid_row=?)") {
		t.Errorf("query plan %q, want a search of seats_by_place by show and row", plan)
	}
}

// queryPlan is EXPLAIN QUERY PLAN's account of q on a read connection, one
// string a step.
func queryPlan(t *testing.T, s *Store, q string, args ...any) []string {
	t.Helper()
	rows, err := s.read.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", q, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, strings.TrimSpace(detail))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// BenchmarkMapOrder measures the map-order reads as they are (the primary
// key range, sorted) against the same reads through an index in map order,
// which this benchmark adds to its own file, and CreateShow with and
// without that index: the figures behind mapOrderSQL, in docs/PERFORMANCE.md.
//
//	go test -run '^$' -bench MapOrder -benchtime 2000x -count 1 ./internal/sqlite/
func BenchmarkMapOrder(b *testing.B) {
	ctx := context.Background()
	for _, size := range []struct{ rows, cols, shows int }{{20, 25, 100}, {200, 250, 2}} {
		if size.shows < 100 && testing.Short() {
			continue // 50,000-seat shows take seconds to seed
		}
		for _, variant := range []string{"primary-key", "index"} {
			b.Run(fmt.Sprintf("seats=%d/%s", size.rows*size.cols, variant), func(b *testing.B) {
				s, _ := mustOpen(b)
				if variant == "index" {
					if _, err := s.write.ExecContext(ctx, `CREATE INDEX seats_map ON seats (show_id, grid_row, grid_col, seat_id)`); err != nil {
						b.Fatal(err)
					}
				}
				start := time.Now()
				for i := range size.shows {
					mustCreateShow(b, s, fmt.Sprintf("s%03d", i), size.rows, size.cols)
				}
				b.Logf("CreateShow: %v a show", (time.Since(start) / time.Duration(size.shows)).Round(time.Microsecond))
				show := func(i int) string { return fmt.Sprintf("s%03d", i%size.shows) }
				b.Run("seats", func(b *testing.B) {
					testkit.Measure(b, func(i int) time.Duration {
						start := time.Now()
						rows, err := s.read.QueryContext(ctx, seatsSQL, show(i))
						if err != nil {
							b.Fatal(err)
						}
						if _, err := collectSeats(show(i), rows); err != nil {
							b.Fatal(err)
						}
						return time.Since(start)
					})
				})
				b.Run("available", func(b *testing.B) {
					testkit.Measure(b, func(i int) time.Duration {
						start := time.Now()
						if _, err := s.AvailableSeatIDs(ctx, show(i), at(0)); err != nil {
							b.Fatal(err)
						}
						return time.Since(start)
					})
				})
			})
		}
	}
}

// TestHoldReadPlan: HoldRead's one statement finds the show by its key,
// the owner's active holds through holds_active_owner, and the seats by
// their primary key, or their rows through seats_by_place: nothing is
// scanned.
func TestHoldReadPlan(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 3, 4)
	for _, c := range []struct {
		q     string
		seats string
	}{
		{listedSQL(holdReadSQL, 2), "SEARCH seats USING PRIMARY KEY (show_id=? AND seat_id=?)"},
		{listedSQL(holdRowsReadSQL, 2), "SEARCH seats USING INDEX seats_by_place (show_id=? AND grid_row=?)"},
	} {
		plan := queryPlan(t, s, c.q, "s1", "o1", "A1", "B2")
		for _, want := range []string{
			"SEARCH s USING PRIMARY KEY (id=?)",
			"SEARCH h USING INDEX holds_active_owner (show_id=? AND owner=?) LEFT-JOIN",
			c.seats,
		} {
			if !slices.Contains(plan, want) {
				t.Errorf("query plan %q, want %q", plan, want)
			}
		}
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN") {
				t.Errorf("query plan %q scans (%s)", plan, step)
			}
		}
	}
}
