//go:build unix

package sqlite

import (
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
	"time"
)

// writeLock makes the boxoffice processes that share a database file take
// turns at its write lock by waiting in the kernel: an flock(2) on a file
// beside the database (PATH-writer), taken before BEGIN IMMEDIATE and let
// go after COMMIT. SQLite's own lock cannot be waited on; a process finds
// it taken and tries again later (retryBusy). The flock's waiter is woken
// as the holder lets go, so the lock passes from process to process
// without idle gaps and without one process, retrying at its own pace,
// losing to another for a long time. It guards nothing itself: SQLite's
// lock still decides, and a process that gets no flock (another hung with
// it for longer than busyTimeout, or a file system without flock) writes
// under SQLite's lock alone.
//
// It buys a short tail when processes share a file, and costs some
// throughput, because the processes alternate rather than one running on
// while the other sleeps; a process keeping the flock for its own queued
// writes a while longer does not win it back (scripts/two-processes.sh;
// the figures are "Two processes" in docs/PERFORMANCE.md).
type writeLock struct {
	f  *os.File
	fd int
	// turn admits one goroutine of this process at a time to the
	// flock: every goroutine uses the same open file, and a second
	// flock on it would succeed at once. (The write pool's one
	// connection serialises this process's writes anyway.) Whoever
	// holds the flock holds the turn.
	turn chan struct{}
	wait time.Duration

	// mu guards the waits still blocked in flock(2) and whether close
	// was called: the file is closed when both allow, so that no wait
	// ends on a descriptor that was closed and reused meanwhile.
	mu      sync.Mutex
	blocked int
	closed  bool
}

// openWriteLock opens (creating it) the lock file of the database at path.
func openWriteLock(path string, wait time.Duration) (*writeLock, error) {
	f, err := os.OpenFile(path+"-writer", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return &writeLock{f: f, fd: int(f.Fd()), turn: make(chan struct{}, 1), wait: wait}, nil
}

// lock takes the flock, waiting at most l.wait, and returns what lets it
// go. It fails only when ctx ends first.
func (l *writeLock) lock(ctx context.Context) (unlock func(), err error) {
	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() {
		_ = syscall.Flock(l.fd, syscall.LOCK_UN)
		<-l.turn
	}
	err = syscall.Flock(l.fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return release, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		<-l.turn
		return func() {}, nil // no flock here: SQLite's lock alone
	}
	got := make(chan error, 1)
	l.mu.Lock()
	l.blocked++
	l.mu.Unlock()
	go func() { got <- syscall.Flock(l.fd, syscall.LOCK_EX) }()
	timer := time.NewTimer(l.wait)
	defer timer.Stop()
	var ended error
	select {
	case err := <-got:
		l.unblocked()
		if err != nil {
			<-l.turn
			return func() {}, nil
		}
		return release, nil
	case <-timer.C:
	case <-ctx.Done():
		ended = ctx.Err()
	}
	// Given up on: the flock, when it comes, is let go at once, with the
	// turn, so that it never ends a later write's flock.
	go func() {
		if <-got == nil {
			l.turn <- struct{}{}
			_ = syscall.Flock(l.fd, syscall.LOCK_UN)
			<-l.turn
		}
		l.unblocked()
	}()
	<-l.turn
	if ended != nil {
		return nil, ended
	}
	return func() {}, nil
}

// unblocked counts a wait in flock(2) that ended, and closes the file if
// close was called meanwhile and it was the last.
func (l *writeLock) unblocked() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.blocked--
	if l.closed && l.blocked == 0 {
		_ = l.f.Close()
	}
}

// close closes the file, or leaves that to the last wait still blocked in
// flock(2) (a process that held the flock past the wait).
func (l *writeLock) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if l.blocked > 0 {
		return nil
	}
	return l.f.Close()
}
