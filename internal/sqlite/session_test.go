package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/google/go-cmp/cmp"
)

func TestSessionStore(t *testing.T) {
	s, path := mustOpen(t)
	ss := s.Sessions()
	if ss != s.Sessions() {
		t.Error("Sessions returns a new store each call")
	}

	if _, found, err := ss.Find("nope"); err != nil || found {
		t.Errorf("Find(unknown) = found %v, %v; want not found, nil", found, err)
	}
	if err := ss.Commit("tok", []byte("one"), time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	if err := ss.Commit("tok", []byte("two"), time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("Commit again: %v", err)
	}
	// Another process sees the session at once.
	other := reopen(t, path).Sessions()
	b, found, err := other.Find("tok")
	if err != nil || !found || string(b) != "two" {
		t.Errorf("Find from another store = %q, %v, %v; want \"two\", true, nil", b, found, err)
	}
	all, err := ss.AllCtx(context.Background())
	if err != nil {
		t.Fatalf("AllCtx: %v", err)
	}
	if diff := cmp.Diff(map[string][]byte{"tok": []byte("two")}, all); diff != "" {
		t.Errorf("AllCtx (-want +got):\n%s", diff)
	}

	if err := ss.Delete("tok"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := ss.Delete("tok"); err != nil {
		t.Errorf("Delete of a deleted token: %v", err)
	}
	if _, found, _ := ss.Find("tok"); found {
		t.Error("Find after Delete found the session")
	}
}

func TestSessionExpiry(t *testing.T) {
	s, _ := mustOpen(t)
	ss := s.Sessions()
	if err := ss.Commit("old", []byte("x"), time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := ss.Commit("new", []byte("y"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, found, err := ss.Find("old"); err != nil || found {
		t.Errorf("Find(expired) = found %v, %v; want not found", found, err)
	}
	s.sweepSessions(context.Background())
	var n int
	if err := s.read.QueryRow(`SELECT count(*) FROM sessions`).Scan(&n); err != nil || n != 1 {
		t.Errorf("sessions left after the sweep = %d, %v; want 1", n, err)
	}
}

// TestSessionSweepStopsOnClose runs the background sweep often and checks
// that it deletes, and that Close waits for it to stop.
func TestSessionSweepStopsOnClose(t *testing.T) {
	s, _ := mustOpen(t, func(o *options) { o.sessionGCEvery = 10 * time.Millisecond })
	if err := s.Sessions().Commit("old", []byte("x"), time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var n int
		if err := s.read.QueryRow(`SELECT count(*) FROM sessions`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background sweep never deleted the expired session")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func TestSessionStoreWithSCS(t *testing.T) {
	s, _ := mustOpen(t)
	m := scs.New()
	m.Store = s.Sessions()
	ctx, err := m.Load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	m.Put(ctx, "visitor", "v1")
	token, _, err := m.Commit(ctx)
	if err != nil {
		t.Fatalf("scs Commit: %v", err)
	}
	ctx2, err := m.Load(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.GetString(ctx2, "visitor"); got != "v1" {
		t.Errorf("visitor after a round trip = %q, want v1", got)
	}
}

// TestFindSessionEndedContext: a session read for a request that has
// ended answers the context's error, though the read itself does not
// watch the context (FindCtx).
func TestFindSessionEndedContext(t *testing.T) {
	s, _ := mustOpen(t)
	ss := s.Sessions()
	if err := ss.CommitCtx(context.Background(), "tok", []byte("data"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if b, found, err := ss.FindCtx(ctx, "tok"); err != nil || !found || string(b) != "data" {
		t.Fatalf("FindCtx = %q, %v, %v; want the data", b, found, err)
	}
	cancel()
	if _, _, err := ss.FindCtx(ctx, "tok"); !errors.Is(err, context.Canceled) {
		t.Errorf("FindCtx after the request ended = %v, want context.Canceled", err)
	}
}

// BenchmarkFindSession measures the session's read (findSession) with a
// context that can end, as a request's, and without (FindCtx), in turns,
// by the process's CPU time: modernc's interrupting goroutine and
// database/sql's closing one run on other threads.
//
//	go test -run '^$' -bench FindSession -benchtime 20000x ./internal/sqlite/
func BenchmarkFindSession(b *testing.B) {
	s, _ := mustOpen(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if err := s.Sessions().CommitCtx(ctx, "tok", make([]byte, 300), time.Now().Add(time.Hour)); err != nil {
		b.Fatal(err)
	}
	forms := []struct {
		name string
		ctx  context.Context
		cpu  time.Duration
	}{{name: "cancellable", ctx: ctx}, {name: "without-cancel", ctx: context.WithoutCancel(ctx)}}
	b.ResetTimer()
	for range b.N {
		for i := range forms {
			f := &forms[i]
			start := processCPU(b)
			var data []byte
			if err := s.stmts.findSession.QueryRowContext(f.ctx, "tok", time.Now().UnixNano()).Scan(&data); err != nil {
				b.Fatal(err)
			}
			f.cpu += processCPU(b) - start
		}
	}
	for _, f := range forms {
		b.ReportMetric(float64(f.cpu.Nanoseconds())/float64(b.N), f.name+"-cpu-ns")
	}
}
