//go:build unix

package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"boxoffice/internal/testkit"
)

// held reports whether some process holds the flock of the database at
// path, by trying it on an open file of its own.
func held(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path + "-writer")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// blocked is how many of l's waits are in flock(2).
func blocked(l *writeLock) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.blocked
}

// TestWriteLockTakesTurns: two stores on one file are two processes to
// flock. While one holds the write lock the other waits, and gets it once
// it is let go; a holder that keeps it past the wait is given up on, and
// the waiter goes on without it (SQLite's own lock still decides), and the
// wait given up on never ends a later write's lock.
func TestWriteLockTakesTurns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	a, err := openWriteLock(path, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	b, err := openWriteLock(path, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()

	unlockA, err := a.lock(ctx)
	if err != nil || !held(t, path) {
		t.Fatalf("a.lock: %v, held %v", err, held(t, path))
	}
	gotB := make(chan func())
	go func() {
		u, err := b.lock(ctx)
		if err != nil {
			t.Error(err)
		}
		gotB <- u
	}()
	select {
	case <-gotB:
		t.Fatal("b took the lock while a held it")
	case <-time.After(50 * time.Millisecond):
	}
	unlockA()
	unlockB := <-gotB
	if !held(t, path) {
		t.Error("b returned without the lock")
	}
	unlockB()
	if held(t, path) {
		t.Error("the lock is still held after b let it go")
	}

	// A holder that keeps it past the wait.
	unlockA, _ = a.lock(ctx)
	b.wait = 30 * time.Millisecond
	begun := time.Now()
	unlockB, err = b.lock(ctx)
	if err != nil || time.Since(begun) < b.wait {
		t.Fatalf("b.lock against a hung holder: %v after %v, want nil after %v", err, time.Since(begun), b.wait)
	}
	unlockB() // a no-op: b has no lock to let go
	if !held(t, path) {
		t.Error("b let a's lock go")
	}
	// b's next write waits again; when a lets go, it holds the lock, and
	// the wait b gave up on must not end it.
	b.wait = time.Minute
	go func() {
		u, err := b.lock(ctx)
		if err != nil {
			t.Error(err)
		}
		gotB <- u
	}()
	// b's write waits in flock(2) beside the wait given up on.
	testkit.Eventually(t, 5*time.Second, func() bool { return blocked(b) == 2 }, "b's second write to wait for the lock")
	unlockA()
	unlockB = <-gotB
	// Nothing says when the abandoned wait has done what it does once a
	// lets go (it keeps still, in the right code): it gets a while, then
	// the lock must still be b's.
	time.Sleep(50 * time.Millisecond)
	if !held(t, path) {
		t.Error("b's write lost its lock to the wait it had given up on")
	}
	unlockB()
	testkit.Eventually(t, 5*time.Second, func() bool { return !held(t, path) },
		"the lock to be let go after its holder and the abandoned waiter")

	// A context that ends while waiting.
	unlockA, _ = a.lock(ctx)
	b.wait = time.Minute
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := b.lock(cctx); err != context.DeadlineExceeded {
		t.Errorf("b.lock with an ended context: %v, want %v", err, context.DeadlineExceeded)
	}
	unlockA()
}
