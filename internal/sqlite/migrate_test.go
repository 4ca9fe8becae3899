package sqlite

import (
	"context"
	"database/sql"
	"io/fs"
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
		if _, err := db.Exec(string(script)); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_version VALUES (?, ?, 0)`, v, base); err != nil {
			t.Fatal(err)
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
	if err := s.HoldSeats(ctx, h, m); err != nil {
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

// TestChecksWithoutListsStillRefuse: 0006 rewrote the CHECK constraints of
// seats.status and holds.state from IN (…) to chains of equalities, in a
// file migrated from version 5. They must accept and refuse what they did,
// and the statements of the connection that migrated, and of a second one,
// must be compiled from the new text: no temporary b-tree per row written.
func TestChecksWithoutListsStillRefuse(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v5.db")
	db := openAtVersion(t, path, 5)
	if _, err := db.Exec(`INSERT INTO shows (id, currency, starts_at) VALUES ('s1', 'INR', 4102444800000000000);
		INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, price)
			VALUES ('s1', 'A1', 'A', 1, 0, 0, 100)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Another process's connection, which read the schema before the
	// migration.
	other, err := sql.Open("sqlite", dsn(path, defaultOptions, false))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	var n int
	if err := other.QueryRowContext(ctx, `SELECT count(*) FROM seats`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	s := reopen(t, path)
	// Its next statement finds the schema changed and reads it again. (An
	// EXPLAIN alone would not look.)
	if err := other.QueryRowContext(ctx, `SELECT count(*) FROM seats`).Scan(&n); err != nil {
		t.Fatal(err)
	}

	for name, conn := range map[string]*sql.DB{"migrating connection": s.write, "other connection": other} {
		for _, c := range []struct {
			q, check string
			args     int
		}{
			{lockSQL(4), "status = 'available' OR", 10},
			{insertHoldSQL, "state = 'active' OR", 7},
		} {
			q, check := c.q, c.check
			rows, err := conn.QueryContext(ctx, "EXPLAIN "+q, make([]any, c.args)...)
			if err != nil {
				t.Fatalf("%s: EXPLAIN: %v", name, err)
			}
			var checks []string // the CHECK constraints the statement evaluates, by their text
			for rows.Next() {
				var addr, p1, p2, p3, p5 int
				var opcode, p4, comment sql.NullString
				if err := rows.Scan(&addr, &opcode, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
					t.Fatal(err)
				}
				if opcode.String == "Halt" && p1 == 275 { // SQLITE_CONSTRAINT_CHECK
					checks = append(checks, p4.String)
				}
			}
			rows.Close()
			if len(checks) != 1 || !strings.HasPrefix(checks[0], check) {
				t.Errorf("%s checks %q in %.40q…; want one check starting %q", name, checks, q, check)
			}
		}
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
	var integrity string
	if err := s.write.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check after 0006: %q, %v", integrity, err)
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
}

// TestChecksEditFailsLoudly: should a file's CHECK text differ from what
// 0001 created, 0006 would edit nothing; it must fail, name itself, and
// leave the file at version 5 rather than record a change it did not make.
func TestChecksEditFailsLoudly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v5.db")
	db := openAtVersion(t, path, 5)
	for _, q := range []string{
		`PRAGMA writable_schema = ON`,
		`UPDATE sqlite_schema SET sql = replace(sql, 'CHECK (state IN (', 'CHECK (state  IN (') WHERE name = 'holds'`,
		`PRAGMA writable_schema = RESET`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if s, err := open(ctx, path, defaultOptions); err == nil {
		s.Close()
		t.Fatal("open migrated a file whose CHECK text 0006 cannot edit")
	} else if !strings.Contains(err.Error(), "0006") {
		t.Errorf("open: %v; want the failing migration named", err)
	}
	db, err := sql.Open("sqlite", dsn(path, defaultOptions, false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version int
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&version); err != nil || version != 5 {
		t.Errorf("schema version after the failed migration: %d, %v; want 5", version, err)
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
