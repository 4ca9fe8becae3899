package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// A year of a ten-screen cinema, for BenchmarkFilmReport: 96 shows a day
// (35,040 in the year), a new film each week on screens 1–9 running six
// weeks (six of them a week), one film on screen 0 all year, and 19 bookings of three seats a
// show (665,760 bookings, 1,997,280 seats), one in twenty refunded.
const (
	benchYearDays     = 365
	benchShowsPerDay  = 96
	benchBookingsShow = 19
)

// benchYearStart is the first report week's Friday, in Kolkata.
var benchYearStart = time.Date(2025, 1, 3, 0, 0, 0, 0, time.FixedZone("IST", 5*3600+1800))

// seedFilmYear fills s with benchYear's shows and bookings in a few bulk
// statements, straight into the tables: the report reads shows, movies,
// theatres and the bookings' stored sums, not seats. Foreign keys are off
// on the seeding connection (no holds or payments are made).
func seedFilmYear(b *testing.B, s *Store) {
	b.Helper()
	ctx := context.Background()
	conn, err := s.write.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	stmts := []string{
		`PRAGMA foreign_keys = OFF`,
		`BEGIN`,
		`INSERT INTO theatres (id, name, city, time_zone, currency, tax_rate) VALUES ('t1', 'Regal', 'Delhi', 'Asia/Kolkata', 'INR', 1800)`,
		`WITH RECURSIVE f(i) AS (SELECT -6 UNION ALL SELECT i + 1 FROM f WHERE i < 53)
		 INSERT INTO movies (id, title, rating, runtime_min, language, rent)
		 SELECT 'm' || i, 'Film ' || i, 'UA', 120, 'Hindi', '50,45,40,35' FROM f`,
		`INSERT INTO movies (id, title, rating, runtime_min, language, rent) VALUES ('evergreen', 'Evergreen', 'U', 180, 'Hindi', '50,40')`,
		// Show i: day i/96, screen (i%96)%10, the (i%96)/10-th of that screen's day.
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1)
		 INSERT INTO shows (id, movie_id, movie_title, theatre_id, theatre_name, theatre_city, screen, starts_at, currency, theatre_tz, screen_id)
		 SELECT printf('s%05d', i),
		        CASE WHEN (i % 96) % 10 = 0 THEN 'evergreen' ELSE 'm' || ((i / 96) / 7 - ((i % 96) % 10) % 6) END,
		        '', 't1', 'Regal', 'Delhi', 'Screen ' || ((i % 96) % 10),
		        ?2 + (i / 96) * 86400000000000 + (9 * 3600 + ((i % 96) / 10) * 5400) * 1000000000,
		        'INR', 'Asia/Kolkata', 'sc' || ((i % 96) % 10)
		 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 * ?3 - 1)
		 INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, ticket_code,
		                       created_at, updated_at, tickets, admissions, comps, gross, tax)
		 SELECT printf('b%07d', i), printf('h%07d', i), printf('p%07d', i), 'o', printf('s%05d', i / ?3),
		        printf('A%d,A%d,A%d', i % ?3 * 3 + 1, i % ?3 * 3 + 2, i % ?3 * 3 + 3), 54000, 'INR',
		        CASE WHEN i % 20 = 7 THEN 'refunded' ELSE 'confirmed' END, printf('T%07d', i),
		        ?2, ?2, '', 3, 0, 54000, 8238
		 FROM n`,
		`COMMIT`,
		`PRAGMA foreign_keys = ON`,
		`ANALYZE`,
	}
	args := []any{benchYearDays * benchShowsPerDay, benchYearStart.UnixNano(), benchBookingsShow}
	for _, q := range stmts {
		var err error
		if len(q) > 40 && (q[:4] == "WITH") {
			_, err = conn.ExecContext(ctx, q, args...)
		} else {
			_, err = conn.ExecContext(ctx, q)
		}
		if err != nil {
			b.Fatalf("seed: %v\n%s", err, q)
		}
	}
}

// BenchmarkFilmReport reads and builds the film report of a week near the
// end of a year of a ten-screen cinema (seedFilmYear), the way the page
// does: what shows_film and bookings_report buy (docs/PERFORMANCE.md).
//
//	go test -run '^$' -bench FilmReport -benchtime 10x ./internal/sqlite/
func BenchmarkFilmReport(b *testing.B) {
	path := filepath.Join(b.TempDir(), "year.db")
	s, err := open(context.Background(), path, defaultOptions)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	start := time.Now()
	seedFilmYear(b, s)
	b.Logf("seeded %d shows and %d bookings in %v", benchYearDays*benchShowsPerDay, benchYearDays*benchShowsPerDay*benchBookingsShow, time.Since(start).Round(time.Millisecond))
	svc := booking.NewService(s, nil, booking.Policy{})
	week := benchYearStart.AddDate(0, 0, 7*50) // the 51st week of the year
	first := time.Date(week.Year(), week.Month(), week.Day(), 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	var r booking.FilmReport
	for b.Loop() {
		if r, err = svc.FilmReport(ctx, first, time.Friday, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
	if len(r.Films) != 7 {
		b.Fatalf("%d films in the week; want 7: six films of the week and the evergreen", len(r.Films))
	}
	var toDate booking.FilmFigures
	for _, f := range r.Films {
		toDate = toDate.Add(f.ToDate)
	}
	b.ReportMetric(float64(toDate.Admissions), "admissions-to-date")
}

// BenchmarkSalesReport reads and builds the sales report of the same year
// (seedFilmYear), each booking confirmed a day before its show starts and
// each refunded one an hour later: seven days near the year's end, and,
// once, the whole year (at most 366 days: the longest the page allows).
//
//	go test -run '^$' -bench SalesReport -benchtime 5x ./internal/sqlite/
func BenchmarkSalesReport(b *testing.B) {
	path := filepath.Join(b.TempDir(), "year.db")
	s, err := open(context.Background(), path, defaultOptions)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	seedFilmYear(b, s)
	ctx := context.Background()
	if _, err := s.write.ExecContext(ctx, `UPDATE bookings SET
		confirmed_at = (SELECT starts_at FROM shows WHERE shows.id = bookings.show_id) - 86400000000000,
		refunded_at = CASE WHEN state = 'refunded' THEN (SELECT starts_at FROM shows WHERE shows.id = bookings.show_id) - 82800000000000 END`); err != nil {
		b.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	svc := booking.NewService(s, nil, booking.Policy{})
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	first := day(benchYearStart.AddDate(0, 0, 7*50))
	start, cpu := time.Now(), cpuTime()
	year, err := svc.SalesReport(ctx, day(benchYearStart), day(benchYearStart).AddDate(0, 0, 365), "sandbox", time.UTC)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("the whole year's sales report: %d rows in %v (%v of CPU: the machine may be shared)",
		len(year.Rows), time.Since(start).Round(time.Millisecond), (cpuTime() - cpu).Round(time.Millisecond))
	var r booking.SalesReport
	for b.Loop() {
		if r, err = svc.SalesReport(ctx, first, first.AddDate(0, 0, 6), "sandbox", time.UTC); err != nil {
			b.Fatal(err)
		}
	}
	var seats int
	for _, row := range r.Rows {
		if row.TicketType == booking.AllTypes && row.Channel == booking.ChannelOnline {
			seats += row.Seats
		}
	}
	if want := 7 * benchShowsPerDay * benchBookingsShow * 3; seats != want {
		b.Fatalf("%d seats sold in the week; want %d", seats, want)
	}
	b.ReportMetric(float64(seats), "seats-in-week")
}
