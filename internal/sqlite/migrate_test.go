package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// openAtVersion creates a database at path with the embedded migrations up
// to version applied, as a store of that version would have left it.
func openAtVersion(t *testing.T, path string, version int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path, defaultOptions, true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		v, err := migrationVersion(name)
		if err != nil {
			t.Fatal(err)
		}
		if v > version {
			break
		}
		script, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// In a transaction, as Migrate runs it (0032 defers its foreign
		// keys to the commit).
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(string(script)); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if _, err := tx.Exec(`INSERT INTO schema_version VALUES (?, ?, 0)`, v, base); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
	}
	return db
}

// TestHoldsMadeBeforeMigration5AreFound: 0005 moved the lookup of a
// session's hold from holds_owner to the seats it locks. A hold made
// before, with a random id and seats that do not name their owner, must
// still be the session's active hold, and be replaced by its next one.
func TestHoldsMadeBeforeMigration5AreFound(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.db")
	db := openAtVersion(t, path, 4)
	locked := t0.UnixNano()
	for _, q := range []string{
		`INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000)`,
		`INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, price)
			VALUES ('s1', 'A1', 'A', 1, 0, 0, 100), ('s1', 'A2', 'A', 2, 0, 1, 100), ('s1', 'A3', 'A', 3, 0, 2, 100)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
			VALUES ('oldhold', 's1', 'o1', 'A1,A2', 200, 'INR', ` + strconv.FormatInt(locked, 10) + `, 'active')`,
		`UPDATE seats SET status = 'locked', hold_id = 'oldhold', locked_at = ` + strconv.FormatInt(locked, 10) + `
			WHERE seat_id IN ('A1', 'A2')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	if v, err := s.SchemaVersion(ctx); err != nil || v < 5 {
		t.Fatalf("SchemaVersion = %d, %v; want 5 or more", v, err)
	}
	if h, err := s.ActiveHold(ctx, "s1", "o1"); err != nil || h.ID != "oldhold" {
		t.Fatalf("ActiveHold after the migration = %q, %v; want oldhold", h.ID, err)
	}
	m := at(time.Minute)
	h := booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: "s1", Owner: "o1", SeatIDs: []string{"A2", "A3"}}
	if err := booking.HoldSeatsStep(ctx, s, m.Clock(), h, m.Rules); err != nil {
		t.Fatalf("the session's next hold: %v", err)
	}
	old, err := s.Hold(ctx, "oldhold")
	if err != nil || old.State != booking.HoldReplaced {
		t.Errorf("hold made before the migration: state %q, %v; want %q", old.State, err, booking.HoldReplaced)
	}
	seats, err := s.Seats(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range seats {
		wantHold := map[string]string{"A1": "", "A2": h.ID, "A3": h.ID}[seat.ID]
		if seat.HoldID != wantHold {
			t.Errorf("seat %s: hold %q, want %q", seat.ID, seat.HoldID, wantHold)
		}
	}
}

// TestOpenRefusesNewerSchema: a file migrated by a newer boxoffice is not
// served by an older one, whose statements may not fit the new schema.
func TestOpenRefusesNewerSchema(t *testing.T) {
	s, path := mustOpen(t)
	if _, err := s.write.Exec(`INSERT INTO schema_version VALUES (9999, '9999_future.sql', 0)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s2, err := open(context.Background(), path, defaultOptions); err == nil {
		s2.Close()
		t.Fatal("open of a database at schema version 9999 succeeded")
	} else if !strings.Contains(err.Error(), "9999") {
		t.Errorf("open: %v; want the version named", err)
	}
}

// TestChecksOfEveryRelease: a file at every schema version, from 1 to the
// last, opens and migrates; and both kinds of CHECK on seats.status and
// holds.state (0001's IN lists, and the chains of equalities an earlier
// release of 0006 wrote into sqlite_schema, testdata/0006_as_released.sql,
// and 0030 into seats by rebuilding it) accept and refuse the same values
// after it, with integrity_check ok.
func TestChecksOfEveryRelease(t *testing.T) {
	ctx := context.Background()
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	released, err := os.ReadFile("testdata/0006_as_released.sql")
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		name    string
		version int
		edited  bool // 0006 as released rewrote its CHECKs
	}
	var files []file
	for _, name := range names {
		v, err := migrationVersion(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{fmt.Sprintf("v%d", v), v, false})
	}
	files = append(files, file{"v6 as released", 6, true})
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db")
			version := f.version
			if f.edited {
				version = 5
			}
			db := openAtVersion(t, path, version)
			if f.edited {
				if _, err := db.Exec(string(released)); err != nil {
					t.Fatalf("0006 as released: %v", err)
				}
				if _, err := db.Exec(`INSERT INTO schema_version (version, name, applied_at) VALUES (6, '0006_checks_without_lists.sql', 0)`); err != nil {
					t.Fatal(err)
				}
			}
			var schema string
			if err := db.QueryRow(`SELECT sql FROM sqlite_schema WHERE name = 'seats'`).Scan(&schema); err != nil {
				t.Fatal(err)
			}
			// 0030 rebuilt seats with the chain.
			if chained := f.edited || f.version >= 30; chained != strings.Contains(schema, "status = 'available' OR") {
				t.Fatalf("the seats table's CHECK is not as the file's release left it:\n%s", schema)
			}
			db.Close()
			s := reopen(t, path)
			if _, err := s.write.ExecContext(ctx, `INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000);
				INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, price)
					VALUES ('s1', 'A1', 'A', 1, 0, 0, 100)`); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`UPDATE seats SET status = 'lost' WHERE seat_id = 'A1'`,
				`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
					VALUES ('h1', 's1', 'o1', 'A1', 100, 'INR', 0, 'lost')`,
			} {
				if _, err := s.write.ExecContext(ctx, q); err == nil || !isConstraint(err) {
					t.Errorf("%s: %v; want a CHECK constraint error", q, err)
				}
			}
			for _, status := range []string{"available", "locked", "booked"} {
				if _, err := s.write.ExecContext(ctx, `UPDATE seats SET status = ? WHERE seat_id = 'A1'`, status); err != nil {
					t.Errorf("status %s: %v", status, err)
				}
			}
			for i, state := range []string{"active", "released", "replaced", "completed"} {
				if _, err := s.write.ExecContext(ctx, `INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
					VALUES (?, 's1', 'o1', 'A1', 100, 'INR', 0, ?)`, "h"+strconv.Itoa(i), state); err != nil {
					t.Errorf("state %s: %v", state, err)
				}
			}
			var integrity string
			if err := s.write.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
				t.Errorf("integrity_check: %q, %v", integrity, err)
			}
		})
	}
}

// TestBookingsMadeBeforeMigration7 opens a file at schema 6, the last
// release's, with a booking of every state (one refund_due marked
// refunded the way 0003 did), and checks that 0007 carries each forward:
// the marked one is refunded, the rest keep their state, payments gain
// empty provider refs, the rebuilt table keeps its indexes, and it still
// refuses a second booking with one ticket code.
func TestBookingsMadeBeforeMigration7(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v6.db")
	db := openAtVersion(t, path, 6)
	ts := strconv.FormatInt(t0.UnixNano(), 10)
	stmts := []string{
		`INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
			VALUES ('h1', 's1', 'o1', 'A1', 100, 'INR', ` + ts + `, 'completed')`,
	}
	for i, st := range []struct{ state, code, refundedAt string }{
		{"pending", "", "NULL"}, {"confirmed", "TICK-0001", "NULL"}, {"failed", "", "NULL"},
		{"refund_due", "", "NULL"}, {"refund_due", "", ts},
	} {
		n := strconv.Itoa(i)
		stmts = append(stmts,
			`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at)
				VALUES ('p`+n+`', 'h1', 'b`+n+`', 'o1', 100, 'INR', 'pending', `+ts+`)`,
			`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state,
				ticket_code, reason, created_at, updated_at, refunded_at, refunded_by)
				VALUES ('b`+n+`', 'h1', 'p`+n+`', 'o1', 's1', 'A1', 100, 'INR', '`+st.state+`', '`+st.code+`', 'why', `+ts+`, `+ts+`, `+st.refundedAt+`, 'ops@example.com')`)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	want := []booking.BookingState{booking.BookingPending, booking.BookingConfirmed, booking.BookingFailed,
		booking.BookingRefundDue, booking.BookingRefunded}
	for i, w := range want {
		b, err := s.Booking(ctx, "b"+strconv.Itoa(i))
		if err != nil || b.State != w || b.Reason != "why" || b.RefundID != "" {
			t.Errorf("booking b%d after 0007: %+v, %v; want state %s", i, b, err, w)
		}
		p, err := s.Payment(ctx, "p"+strconv.Itoa(i))
		if err != nil || p.CheckoutRef != "" || p.ChargeRef != "" || !p.CheckoutClosedAt.IsZero() {
			t.Errorf("payment p%d after 0007: %+v, %v", i, p, err)
		}
	}
	// 0008 and 0009 carry the show forward: running, no screen or zone.
	if sh, err := s.Show(ctx, "s1"); err != nil || sh.Cancelled() || sh.ScreenID != "" || sh.Theatre.TimeZone != "" {
		t.Errorf("show after 0008 and 0009: %+v, %v", sh, err)
	}
	if th, err := s.ListTheatres(ctx); err != nil || len(th) != 0 {
		t.Errorf("catalog theatres after 0009: %v, %v", th, err)
	}
	if b, _ := s.Booking(ctx, "b4"); !b.RefundedAt.Equal(t0) || b.RefundedBy != "ops@example.com" {
		t.Errorf("refunded booking lost its audit: at %v by %q", b.RefundedAt, b.RefundedBy)
	}
	var n int
	if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM pragma_index_list('bookings') WHERE name IN ('bookings_show', 'bookings_ticket_code')`).Scan(&n); err != nil || n != 2 {
		t.Errorf("bookings' indexes after the rebuild: %d, %v; want bookings_show and bookings_ticket_code", n, err)
	}
	var check string
	if err := s.write.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
	var violations int
	if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&violations); err != nil || violations != 0 {
		t.Errorf("foreign_key_check: %d violations, %v", violations, err)
	}
	_, err := s.write.ExecContext(ctx, `INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency,
		state, ticket_code, created_at, updated_at) VALUES ('b9', 'h1', 'p1', 'o1', 's1', 'A1', 100, 'INR', 'confirmed', 'TICK-0001', 0, 0)`)
	if !isConstraint(err) {
		t.Errorf("a second booking with ticket TICK-0001: %v, want a constraint violation", err)
	}
}

// TestPaymentsMadeBeforeMigration18: a pending payment with an open
// checkout, made before checkout attempts were numbered, reads as attempt
// 0 with no expiry, so that Pay again closes that checkout and begins
// attempt 1; it stays in payments_open_checkouts until then.
func TestPaymentsMadeBeforeMigration18(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v17.db")
	db := openAtVersion(t, path, 17)
	ts := strconv.FormatInt(t0.UnixNano(), 10)
	for _, q := range []string{
		`INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
			VALUES ('h1', 's1', 'o1', 'A1', 100, 'INR', ` + ts + `, 'active')`,
		`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at, checkout_ref)
			VALUES ('p1', 'h1', 'b1', 'o1', 100, 'INR', 'pending', ` + ts + `, 'cs_test_old')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	p, err := s.Payment(ctx, "p1")
	if err != nil || p.CheckoutAttempt != 0 || !p.CheckoutExpiresAt.IsZero() || !p.CheckoutOpen() {
		t.Fatalf("payment after 0018: %+v, %v; want attempt 0, no expiry, its checkout open", p, err)
	}
	if p.ReuseCheckout(t0) {
		t.Error("Pay again would reuse a checkout of unknown expiry")
	}
	var open int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM payments INDEXED BY payments_open_checkouts
		WHERE state = 'pending' AND checkout_ref <> '' AND checkout_closed_at IS NULL`).Scan(&open); err != nil || open != 1 {
		t.Errorf("open checkouts after 0018: %d, %v; want 1", open, err)
	}
	got, moved, err := booking.BeginCheckoutStep(ctx, s, func() time.Time { return t0 }, "p1", 0, booking.CheckoutLifetime)
	if err != nil || !moved || got.CheckoutAttempt != 1 || got.CheckoutOpen() {
		t.Errorf("BeginCheckout after 0018 = %+v, moved %v, %v; want attempt 1, the old checkout closed", got, moved, err)
	}
}

// TestTheatresMadeBeforeMigration26: a theatre of a database of today's
// schema (0024) gets the currency of its shows, and one without shows INR;
// a show's currency then stays the theatre's (a change is 409).
func TestTheatresMadeBeforeMigration26(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v24.db")
	db := openAtVersion(t, path, 24)
	for _, q := range []string{
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('berlin', 'Kino', 'Berlin', 'Europe/Berlin')`,
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('pune', 'Regal', 'Pune', 'Asia/Kolkata')`,
		`INSERT INTO theatres (id, name, city, time_zone) VALUES ('empty', 'New', 'Goa', 'Asia/Kolkata')`,
		`INSERT INTO shows (id, currency, starts_at, theatre_id) VALUES ('s1', 'EUR', 4102444800000000000, 'berlin')`,
		`INSERT INTO shows (id, currency, starts_at, theatre_id) VALUES ('s2', 'INR', 4102444800000000000, 'pune')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s := reopen(t, path)
	for id, want := range map[string]string{"berlin": "EUR", "pune": "INR", "empty": "INR"} {
		th, err := s.Theatre(ctx, id)
		if err != nil || th.Currency != want {
			t.Errorf("theatre %s after 0026: %+v, %v; want currency %s", id, th, err, want)
		}
	}
	th, err := s.Theatre(ctx, "berlin")
	if err != nil {
		t.Fatal(err)
	}
	th.Currency = "GBP"
	if err := booking.SaveTheatreStep(ctx, s, time.Now, th); booking.ErrorCode(err) != booking.ECONFLICT {
		t.Errorf("changing the currency of a migrated theatre with a show = %v, want 409", err)
	}
}

// TestSeatWriteBuildsNoListPerRow: writing a seat's status checks it
// without a temporary b-tree. SQLite checks a CHECK's IN list of three
// constants or more through one, opened again for every row written: every
// seat a hold locks or frees (0030).
func TestSeatWriteBuildsNoListPerRow(t *testing.T) {
	s, _ := mustOpen(t)
	rows, err := s.write.Query(`EXPLAIN UPDATE seats SET status = 'locked' WHERE show_id = ? AND seat_id = ?`, "s1", "A1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			addr            int
			opcode          string
			p1, p2, p3      sql.NullInt64
			p4, p5, comment sql.NullString
		)
		if err := rows.Scan(&addr, &opcode, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
			t.Fatal(err)
		}
		if opcode == "OpenEphemeral" {
			t.Errorf("a seat's UPDATE opens a temporary b-tree at %d", addr)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestSeatsKeptByMigration30: rebuilding seats for its CHECK (0030) keeps
// every seat as it was, with its index, and the constraint still refuses
// a status it does not know.
func TestSeatsKeptByMigration30(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v29.db")
	db := openAtVersion(t, path, 29)
	for _, q := range []string{
		`INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000)`,
		`INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind, status, hold_id, locked_at, booking_id, hold_owner)
			VALUES ('s1', 'A1', 'A', 1, 0, 0, 'Gold', 100, 'wheelchair', 'locked', 'h1', 42, NULL, 'o1'),
			       ('s1', 'A2', 'A', 2, 0, 1, '', 200, 'standard', 'booked', NULL, NULL, 'b1', NULL),
			       ('s1', 'B1', 'B', 1, 1, 0, '', 300, 'standard', 'available', NULL, NULL, NULL, NULL)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const all = `SELECT show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind, status,
		coalesce(hold_id, '-'), coalesce(locked_at, -1), coalesce(booking_id, '-'), coalesce(hold_owner, '-')
		FROM seats ORDER BY show_id, seat_id`
	dump := func(db *sql.DB) []string {
		t.Helper()
		rows, err := db.Query(all)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			v := make([]any, 14)
			p := make([]any, len(v))
			for i := range v {
				p[i] = &v[i]
			}
			if err := rows.Scan(p...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(v...))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := dump(db)
	db.Close()

	s := reopen(t, path)
	if v, err := s.SchemaVersion(ctx); err != nil || v < 30 {
		t.Fatalf("SchemaVersion = %d, %v; want 30 or more", v, err)
	}
	if after := dump(s.write); !slices.Equal(before, after) {
		t.Errorf("seats after 0030:\n%q\nwant\n%q", after, before)
	}
	var schema string
	if err := s.write.QueryRow(`SELECT sql FROM sqlite_schema WHERE name = 'seats'`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(schema, "status = 'available' OR status = 'locked' OR status = 'booked'") {
		t.Errorf("seats after 0030:\n%s\nwant the CHECK as a chain of equalities", schema)
	}
	var index int
	if err := s.write.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'seats_by_place' AND tbl_name = 'seats'`).Scan(&index); err != nil || index != 1 {
		t.Errorf("seats_by_place after 0030: %d, %v; want it", index, err)
	}
	if _, err := s.write.Exec(`UPDATE seats SET status = 'lost' WHERE seat_id = 'B1'`); err == nil || !isConstraint(err) {
		t.Errorf("a status it does not know: %v; want a CHECK constraint error", err)
	}
	var check string
	if err := s.write.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
}

// TestHoldWriteBuildsNoListPerRow: writing a hold checks its state without
// a temporary b-tree, as TestSeatWriteBuildsNoListPerRow for seats: every
// hold inserts one and replaces another (0035).
func TestHoldWriteBuildsNoListPerRow(t *testing.T) {
	s, _ := mustOpen(t)
	for q, args := range map[string]int{insertHoldSQL: 11, `UPDATE holds SET state = ? WHERE id = ?`: 2} {
		rows, err := s.write.Query(`EXPLAIN `+q, make([]any, args)...)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				addr            int
				opcode          string
				p1, p2, p3      sql.NullInt64
				p4, p5, comment sql.NullString
			)
			if err := rows.Scan(&addr, &opcode, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
				t.Fatal(err)
			}
			if opcode == "OpenEphemeral" {
				t.Errorf("%s opens a temporary b-tree at %d", q, addr)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
}

// TestHoldsKeptByMigration35: rebuilding holds for its CHECK (0035), which
// payments and bookings refer to, keeps every hold as it was, with its
// indexes; the references still hold and are still enforced, and the
// constraint still refuses a state it does not know.
func TestHoldsKeptByMigration35(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v34.db")
	db := openAtVersion(t, path, 34)
	for _, q := range []string{
		`INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000)`,
		`INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter)
			VALUES ('h1', 's1', 'o1', 'A1,A2', 200, 'INR', 10, 'replaced', '', 0, 0),
			       ('h2', 's1', 'o1', 'A3', 100, 'INR', 20, 'active', '203.0.113.7', 1, 0),
			       ('h3', 's1', 'o2', 'B1', 300, 'INR', 30, 'completed', '', 0, 1),
			       ('h4', 's1', 'o3', 'B2', 300, 'INR', 40, 'released', '', 0, 0)`,
		`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at)
			VALUES ('p2', 'h2', 'b2', 'o1', 100, 'INR', 'pending', 21),
			       ('p3', 'h3', 'b3', 'o2', 300, 'INR', 'succeeded', 31)`,
		`INSERT INTO bookings (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state, created_at, updated_at)
			VALUES ('b3', 'h3', 'p3', 'o2', 's1', 'B1', 300, 'INR', 'confirmed', 32, 32)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const all = `SELECT id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter FROM holds ORDER BY id`
	dump := func(db *sql.DB) []string {
		t.Helper()
		rows, err := db.Query(all)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			v := make([]any, 11)
			p := make([]any, len(v))
			for i := range v {
				p[i] = &v[i]
			}
			if err := rows.Scan(p...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(v...))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := dump(db)
	db.Close()

	s := reopen(t, path)
	if v, err := s.SchemaVersion(ctx); err != nil || v < 35 {
		t.Fatalf("SchemaVersion = %d, %v; want 35 or more", v, err)
	}
	if after := dump(s.write); !slices.Equal(before, after) {
		t.Errorf("holds after 0035:\n%q\nwant\n%q", after, before)
	}
	var schema string
	if err := s.write.QueryRow(`SELECT sql FROM sqlite_schema WHERE name = 'holds'`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(schema, "state = 'active' OR state = 'released' OR state = 'replaced' OR state = 'completed'") {
		t.Errorf("holds after 0035:\n%s\nwant the CHECK as a chain of equalities", schema)
	}
	for _, name := range []string{"holds_active_owner", "holds_address"} {
		var index int
		if err := s.write.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ? AND tbl_name = 'holds'`, name).Scan(&index); err != nil || index != 1 {
			t.Errorf("%s after 0035: %d, %v; want it", name, index, err)
		}
	}
	rows, err := s.write.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Error("foreign_key_check after 0035 finds a row that refers to nothing")
	}
	rows.Close()
	if _, err := s.write.Exec(`DELETE FROM holds WHERE id = 'h3'`); err == nil || !isConstraint(err) {
		t.Errorf("deleting a hold a payment and a booking refer to: %v; want a FOREIGN KEY constraint error", err)
	}
	if _, err := s.write.Exec(`INSERT INTO payments (id, hold_id, booking_id, owner, amount, currency, state, created_at)
		VALUES ('p9', 'nope', 'b9', 'o9', 1, 'INR', 'pending', 1)`); err == nil || !isConstraint(err) {
		t.Errorf("a payment of no hold: %v; want a FOREIGN KEY constraint error", err)
	}
	if _, err := s.write.Exec(`UPDATE holds SET state = 'lost' WHERE id = 'h4'`); err == nil || !isConstraint(err) {
		t.Errorf("a state it does not know: %v; want a CHECK constraint error", err)
	}
	var check string
	if err := s.write.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
}
