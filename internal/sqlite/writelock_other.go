//go:build !unix

package sqlite

import (
	"context"
	"time"
)

// writeLock is a no-op where flock(2) is missing: the processes on one
// file take turns at SQLite's lock through retryBusy alone.
type writeLock struct{}

func openWriteLock(string, time.Duration) (*writeLock, error) { return &writeLock{}, nil }

func (*writeLock) lock(context.Context) (func(), error) { return func() {}, nil }

func (*writeLock) close() error { return nil }
