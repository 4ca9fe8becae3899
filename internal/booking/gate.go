package booking

import (
	"context"
	"sync"
)

// HoldGater is a store that asks each process to let one hold step of a
// show into the store at a time (MongoDB: holds of one show conflict in
// the database, and retries then pile up among a process's own requests,
// where waiting in turn costs nothing). It is a throughput measure only:
// the seats are locked in the database, and nothing is correct because of
// it.
type HoldGater interface {
	GateHoldsPerShow() bool
}

// showGate lets one step per show in at a time, in this process.
type showGate struct {
	mu    sync.Mutex
	shows map[string]*gateTurn
}

type gateTurn struct {
	ch      chan struct{} // a token: whoever holds it is in
	waiting int           // steps holding or waiting for the token
}

func newShowGate() *showGate { return &showGate{shows: map[string]*gateTurn{}} }

// enter waits for showID's turn, or for ctx to end; release ends the turn.
// A nil gate lets everyone in at once.
func (g *showGate) enter(ctx context.Context, showID string) (release func(), err error) {
	if g == nil {
		return func() {}, nil
	}
	g.mu.Lock()
	t, ok := g.shows[showID]
	if !ok {
		t = &gateTurn{ch: make(chan struct{}, 1)}
		g.shows[showID] = t
	}
	t.waiting++
	g.mu.Unlock()
	leave := func() {
		g.mu.Lock()
		if t.waiting--; t.waiting == 0 {
			delete(g.shows, showID)
		}
		g.mu.Unlock()
	}
	select {
	case t.ch <- struct{}{}:
		return func() { <-t.ch; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}
