package web

import (
	"sync"
	"time"
)

// loginThrottle slows down password guessing, per account (the email as
// typed, known or not, so that it tells nothing about which exist) and per
// client address. It counts in this process's memory: with N processes a
// guesser gets N times the attempts, still under the same exponential
// delay. A few free failures, then each further one locks the key for
// twice as long as the one before, up to maxLock. A success clears the
// account's count, never the address's.
type loginThrottle struct {
	mu    sync.Mutex
	keys  map[string]*failures
	sweep time.Time
}

type failures struct {
	n     int
	until time.Time // locked until
	last  time.Time
}

// Limits of the login throttle. An address gets more free failures than an
// account, as many people may share one (a NAT, an office).
const (
	freeAccountFailures = 3
	freeAddressFailures = 10
	baseLock            = time.Second
	maxLock             = 15 * time.Minute
	forgetAfter         = time.Hour // an idle key starts again from zero
)

func newLoginThrottle() *loginThrottle { return &loginThrottle{keys: map[string]*failures{}} }

// wait reports how long until any of keys may try again; 0 when all may.
func (l *loginThrottle) wait(now time.Time, keys ...string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var longest time.Duration
	for _, k := range keys {
		if f := l.keys[k]; f != nil && f.until.After(now) {
			longest = max(longest, f.until.Sub(now))
		}
	}
	return longest
}

// fail records a failed sign-in against each key with its free failures.
func (l *loginThrottle) fail(now time.Time, keys map[string]int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > forgetAfter {
		for k, f := range l.keys {
			if now.Sub(f.last) > forgetAfter {
				delete(l.keys, k)
			}
		}
		l.sweep = now
	}
	for k, free := range keys {
		f := l.keys[k]
		if f == nil || now.Sub(f.last) > forgetAfter {
			f = &failures{}
			l.keys[k] = f
		}
		f.n++
		f.last = now
		if over := f.n - free; over > 0 {
			lock := maxLock
			if over <= 20 {
				lock = min(maxLock, baseLock<<(over-1))
			}
			f.until = now.Add(lock)
		}
	}
}

// succeed forgets the failures of key.
func (l *loginThrottle) succeed(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keys, key)
}
