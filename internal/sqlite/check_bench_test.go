package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkSeatStatusCheck measures what seats.status's CHECK costs a
// replacing hold's seat writes (lock 4 seats, free the previous 4), with
// 0001's IN list and with 0030's chain of equalities, on two files of one
// 500-seat show, in turns (which cancels the machine's drift), by the CPU
// time of the benchmark's thread. It reports each form's CPU per op.
//
//	go test -run '^$' -bench SeatStatusCheck -benchtime 20000x ./internal/sqlite/
func BenchmarkSeatStatusCheck(b *testing.B) {
	type form struct {
		name       string
		db         *sql.DB
		lock, free *sql.Stmt
		cpu        time.Duration
	}
	open := func(name, check string) *form {
		db, err := sql.Open("sqlite", dsn(filepath.Join(b.TempDir(), name+".db"), defaultOptions, true))
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		b.Cleanup(func() { db.Close() })
		if _, err := db.Exec(`CREATE TABLE seats (show_id TEXT NOT NULL, seat_id TEXT NOT NULL,
			row_label TEXT NOT NULL, number INTEGER NOT NULL, grid_row INTEGER NOT NULL, grid_col INTEGER NOT NULL,
			category TEXT NOT NULL DEFAULT '', price INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'standard',
			status TEXT NOT NULL DEFAULT 'available' CHECK (` + check + `),
			hold_id TEXT, locked_at INTEGER, booking_id TEXT, hold_owner TEXT,
			PRIMARY KEY (show_id, seat_id)) WITHOUT ROWID`); err != nil {
			b.Fatal(err)
		}
		for r := range benchRows {
			for c := 1; c <= benchCols; c++ {
				if _, err := db.Exec(`INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, price)
					VALUES ('s', ?, ?, ?, ?, ?, 100)`, fmt.Sprintf("%c%d", 'A'+r, c), string(rune('A'+r)), c, r, c); err != nil {
					b.Fatal(err)
				}
			}
		}
		f := &form{name: name, db: db}
		if f.lock, err = db.Prepare(listedSQL(lockSQL, benchBlock)); err != nil {
			b.Fatal(err)
		}
		if f.free, err = db.Prepare(listedSQL(releaseSeatsSQL, benchBlock)); err != nil {
			b.Fatal(err)
		}
		return f
	}
	forms := []*form{
		open("in-list", "status IN ('available', 'locked', 'booked')"),
		open("equalities", "status = 'available' OR status = 'locked' OR status = 'booked'"),
	}
	blocks := [2][]any{{"A1", "A2", "A3", "A4"}, {"B1", "B2", "B3", "B4"}}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for i := range b.N {
		for _, f := range forms {
			start := threadCPU(b)
			tx, err := f.db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			now, held, prev := int64(i+1), fmt.Sprint("h", i), fmt.Sprint("h", i-1)
			lock := append([]any{held, "o", now, "s"}, blocks[i%2]...)
			free := append([]any{"s", "o", prev}, blocks[(i+1)%2]...)
			if _, err := tx.Stmt(f.lock).Exec(lock...); err != nil {
				b.Fatal(err)
			}
			if _, err := tx.Stmt(f.free).Exec(free...); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			f.cpu += threadCPU(b) - start
		}
	}
	for _, f := range forms {
		b.ReportMetric(float64(f.cpu.Nanoseconds())/float64(b.N), f.name+"-cpu-ns")
	}
}

// BenchmarkHoldStateCheck measures what holds.state's CHECK costs a
// replacing hold's writes to holds (mark the previous hold replaced,
// insert the new one, commit), with 0001's IN list and with 0032's chain
// of equalities, on two files, in turns, by the CPU time of the
// benchmark's thread, as BenchmarkSeatStatusCheck does for seats.
//
//	go test -run '^$' -bench HoldStateCheck -benchtime 5000x ./internal/sqlite/
func BenchmarkHoldStateCheck(b *testing.B) {
	type form struct {
		name     string
		db       *sql.DB
		ins, upd *sql.Stmt
		cpu      time.Duration
	}
	open := func(name, check string) *form {
		db, err := sql.Open("sqlite", dsn(filepath.Join(b.TempDir(), name+".db"), defaultOptions, true))
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		b.Cleanup(func() { db.Close() })
		for _, q := range []string{
			`CREATE TABLE holds (id TEXT PRIMARY KEY, show_id TEXT NOT NULL, owner TEXT NOT NULL, seat_ids TEXT NOT NULL,
				amount INTEGER NOT NULL, currency TEXT NOT NULL, created_at INTEGER NOT NULL,
				state TEXT NOT NULL CHECK (` + check + `),
				address TEXT NOT NULL DEFAULT '', extensions INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID`,
			`CREATE INDEX holds_address ON holds (show_id, address, created_at) WHERE state = 'active' AND address <> ''`,
			`CREATE INDEX holds_active_owner ON holds (show_id, owner, created_at) WHERE state = 'active'`,
		} {
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
		f := &form{name: name, db: db}
		if f.ins, err = db.Prepare(insertHoldSQL); err != nil {
			b.Fatal(err)
		}
		if f.upd, err = db.Prepare(`UPDATE holds SET state = ? WHERE id = ?`); err != nil {
			b.Fatal(err)
		}
		return f
	}
	forms := []*form{
		open("in-list", "state IN ('active', 'released', 'replaced', 'completed')"),
		open("equalities", "state = 'active' OR state = 'released' OR state = 'replaced' OR state = 'completed'"),
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for i := range b.N {
		for _, f := range forms {
			start := threadCPU(b)
			tx, err := f.db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			if i > 0 {
				if _, err := tx.Stmt(f.upd).Exec("replaced", fmt.Sprint("h", i-1)); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := tx.Stmt(f.ins).Exec(fmt.Sprint("h", i), "s", "o", "A1,A2,A3,A4", 400, "INR", int64(i+1), "active", "203.0.113.7", 0); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			f.cpu += threadCPU(b) - start
		}
	}
	for _, f := range forms {
		b.ReportMetric(float64(f.cpu.Nanoseconds())/float64(b.N), f.name+"-cpu-ns")
	}
}
