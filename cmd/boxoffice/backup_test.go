package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/testkit"
)

// bookSeat books seat of show through the domain on store, as a paid
// checkout does.
func bookSeat(t *testing.T, svc *booking.Service, showID, seat string) booking.Booking {
	t.Helper()
	ctx := context.Background()
	owner := booking.NewID()
	holdID, err := svc.HoldSeats(ctx, showID, owner, []string{seat})
	if err != nil {
		t.Fatalf("hold %s: %v", seat, err)
	}
	p, _, err := svc.StartPayment(ctx, holdID, owner, "moviegoer@example.com")
	if err != nil {
		t.Fatal(err)
	}
	st, err := svc.SettlePayment(ctx, booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: holdID, Amount: p.Amount, Currency: p.Currency})
	if err != nil || st.Effect != booking.EffectBooked {
		t.Fatalf("settle %s: %s, %v", seat, st.Effect, err)
	}
	return st.Booking
}

// bookedSeats is the set of seats the server at srv shows booked on the
// seat map of showID.
func bookedSeats(t *testing.T, srv, showID string) map[string]bool {
	t.Helper()
	res, err := http.Get(srv + "/shows/" + showID)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET the seat map: %s", res.Status)
	}
	d, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	booked := map[string]bool{}
	d.Find(`[data-seat-id][data-state="booked"]`).Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		booked[id] = true
	})
	return booked
}

// holdOverHTTP holds seat for a new moviegoer at srv and reports whether
// the server answered 303.
func holdOverHTTP(client *http.Client, srv, showID, seat string) error {
	res, err := client.Get(srv + "/shows/" + showID)
	if err != nil {
		return err
	}
	d, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	token, _ := d.Find(`meta[name="csrf-token"]`).Attr("content")
	res, err = client.PostForm(srv+"/shows/"+showID+"/holds", url.Values{"_csrf": {token}, "seat": {seat}})
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		return fmt.Errorf("hold %s: %s", seat, res.Status)
	}
	return nil
}

// TestBackupWhileServing is issue 14's item 12: "boxoffice backup PATH"
// copies the database while a server process serves and takes holds; the
// copy passes integrity_check and has every booking made before it; put
// back in place of a stopped server's file (docs/OPERATIONS.md), a server
// started on it shows those bookings, and not one made after the backup.
func TestBackupWhileServing(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dbURL, path := tempDatabaseURL(t)
	ctx := context.Background()

	store, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	show, _ := createShow(t, store, "Backed Up", 60)
	svc := booking.NewService(store, nil, booking.DefaultPolicy)
	var before []string
	for _, seat := range []string{"A1", "A2", "A3", "B4", "C5"} {
		bookSeat(t, svc, show.ID, seat)
		before = append(before, seat)
	}
	// HOLD_RATE=0: the moviegoers below hold as fast as they can.
	serverEnv := []string{"ADDR=127.0.0.1:0", "DATABASE_URL=" + dbURL, "SEED_DEMO=false", "LOG_FORMAT=json", "HOLD_RATE=0"}
	p := serve(t, bin, serverEnv...)

	// Two moviegoers hold seats of rows D and E over HTTP all along,
	// each new hold replacing their previous one.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var held, failed atomic.Int64
	for g := range 2 {
		client := newBrowserlessClient(t)
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// The ends of a row, in turns: a hold that leaves a
				// single seat alone may be refused.
				seat := fmt.Sprintf("%c%d", 'D'+g, 1+9*(i%2))
				if err := holdOverHTTP(client, p.URL, show.ID, seat); err != nil {
					if failed.Add(1) == 1 {
						t.Logf("a hold during the backups failed: %v", err)
					}
					continue
				}
				held.Add(1)
			}
		})
	}
	testkit.Eventually(t, 10*time.Second, func() bool { return held.Load() >= 2 }, "holds over HTTP before the first backup")

	dir := t.TempDir()
	var copies []string
	getenv := env(map[string]string{"DATABASE_URL": dbURL})
	for i := range 3 {
		copyPath := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		var out bytes.Buffer
		m := &Main{Stdout: &out, Stderr: io.Discard}
		start := time.Now()
		if err := m.backup(ctx, []string{copyPath}, getenv); err != nil {
			t.Fatalf("backup %d while serving: %v", i, err)
		}
		t.Logf("backup %d in %v: %s", i, time.Since(start), strings.TrimSpace(out.String()))
		if !strings.Contains(out.String(), "backed up "+dbURL+" to "+copyPath) {
			t.Errorf("backup said %q", out.String())
		}
		copies = append(copies, copyPath)
		n := held.Load()
		testkit.Eventually(t, 10*time.Second, func() bool { return held.Load() > n }, "a hold over HTTP after backup %d", i)
	}
	afterBackup := bookSeat(t, svc, show.ID, "F6") // not in any copy
	close(stop)
	wg.Wait()
	t.Logf("%d holds over HTTP during the backups, %d refused", held.Load(), failed.Load())
	if held.Load() == 0 || failed.Load() > 0 {
		t.Errorf("%d holds went through while the backups ran and %d failed, want all through", held.Load(), failed.Load())
	}

	for _, c := range copies {
		db, err := sql.Open("sqlite", c)
		if err != nil {
			t.Fatal(err)
		}
		var verdict string
		var confirmed, holds int
		if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&verdict); err != nil || verdict != "ok" {
			t.Errorf("integrity_check of %s: %q, %v", c, verdict, err)
		}
		if err := db.QueryRow(`SELECT count(*) FROM bookings WHERE state = 'confirmed'`).Scan(&confirmed); err != nil || confirmed != len(before) {
			t.Errorf("%s has %d confirmed bookings (%v), want the %d made before", c, confirmed, err, len(before))
		}
		if err := db.QueryRow(`SELECT count(*) FROM holds`).Scan(&holds); err != nil || holds < len(before) {
			t.Errorf("%s has %d holds (%v)", c, holds, err)
		}
		db.Close()
		if _, err := os.Stat(c + "-wal"); err == nil {
			t.Errorf("the copy %s left a -wal file beside it: it is not one file", c)
		}
	}

	// What it refuses.
	m := &Main{Stdout: io.Discard, Stderr: io.Discard}
	if err := m.backup(ctx, []string{copies[0]}, getenv); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("backup over an existing file: %v, want it refused", err)
	}
	mongoEnv := env(map[string]string{"DATABASE_URL": "mongodb://db.example.com:27017/boxoffice"})
	if err := m.backup(ctx, []string{filepath.Join(dir, "mongo.db")}, mongoEnv); err == nil || !strings.Contains(err.Error(), "mongodump") {
		t.Errorf("backup of MongoDB: %v, want a pointer to mongodump", err)
	}
	if err := m.backup(ctx, nil, getenv); err == nil {
		t.Error("backup without a PATH: no error")
	}

	// Restore (docs/OPERATIONS.md): stop the servers, replace the file,
	// remove -wal and -shm, start.
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(shutdownGrace + 5*time.Second); err != nil {
		t.Fatalf("stopping the server: %v", err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	last := copies[len(copies)-1]
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	restored := serve(t, bin, serverEnv...)
	booked := bookedSeats(t, restored.URL, show.ID)
	for _, seat := range before {
		if !booked[seat] {
			t.Errorf("after the restore seat %s, booked before the backup, is not shown booked", seat)
		}
	}
	if booked[afterBackup.SeatIDs[0]] || len(booked) != len(before) {
		t.Errorf("after the restore the booked seats are %v, want exactly %v", booked, before)
	}
}
