package web

import (
	"context"
	"errors"
	"sync"
	"time"

	"boxoffice/internal/booking"
)

// onSaleAge is how old the on-sales a process decides on may be (SPEC §18):
// it reads every open on-sale, with its shows, segments and state, in one
// query at most this often, whatever the number of requests, so that a
// pause, a change of rate or a close takes effect within it.
const onSaleAge = 2 * time.Second

// onSaleCache is this process's snapshot of the open on-sales, which the
// gate, the queue page and joins decide on, and of what the queue page
// shows of their shows. Closed on-sales found by id are kept too (a few),
// so that their queue page says closed without a read each time.
type onSaleCache struct {
	svc *booking.Service

	mu     sync.Mutex // held while the snapshot is read: one read at a time
	loaded bool
	at     time.Time // when it was read, by the service's clock
	open   []booking.OnSale
	closed map[string]booking.OnSale
	shows  map[string]booking.Show
}

// onSaleKept bounds the closed on-sales and the shows kept.
const onSaleKept = 256

func newOnSaleCache(svc *booking.Service) *onSaleCache {
	return &onSaleCache{svc: svc, closed: map[string]booking.OnSale{}, shows: map[string]booking.Show{}}
}

// snapshot is the open on-sales at now, read again when the snapshot is
// onSaleAge old (or the clock went back). A failed read keeps the last
// snapshot; with none, it is the error.
func (c *onSaleCache) snapshot(ctx context.Context, now time.Time) ([]booking.OnSale, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded && now.Sub(c.at) < onSaleAge && !now.Before(c.at) {
		return c.open, nil
	}
	open, err := c.svc.OpenOnSales(ctx, now)
	if err != nil {
		if c.loaded {
			return c.open, nil
		}
		return nil, err
	}
	c.open, c.at, c.loaded = open, now, true
	return open, nil
}

// invalidate makes the next snapshot read again: this process changed an
// on-sale, and its admin sees the change at once.
func (c *onSaleCache) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loaded = false
}

// covering is the on-sale gating show showID at now, if any: open, and
// from booking.GateBefore T0.
func (c *onSaleCache) covering(ctx context.Context, showID string, now time.Time) (booking.OnSale, bool, error) {
	open, err := c.snapshot(ctx, now)
	if err != nil {
		return booking.OnSale{}, false, err
	}
	for _, o := range open {
		if o.Covers(showID) && o.Gating(now) {
			return o, true, nil
		}
	}
	return booking.OnSale{}, false, nil
}

// find is on-sale id: from the snapshot when open, else from the closed
// ones kept, else read once (an id that is no NewID is not looked up).
func (c *onSaleCache) find(ctx context.Context, id string, now time.Time) (booking.OnSale, error) {
	open, err := c.snapshot(ctx, now)
	if err != nil {
		return booking.OnSale{}, err
	}
	for _, o := range open {
		if o.ID == id && !o.Closed(now) {
			return o, nil
		}
	}
	c.mu.Lock()
	o, ok := c.closed[id]
	c.mu.Unlock()
	if ok {
		return o, nil
	}
	if !looksLikeID(id) {
		return booking.OnSale{}, booking.ErrOnSaleNotFound
	}
	o, err = c.svc.OnSale(ctx, id)
	if err != nil {
		return booking.OnSale{}, err
	}
	if o.Closed(now) {
		c.mu.Lock()
		if len(c.closed) >= onSaleKept {
			clear(c.closed)
		}
		c.closed[id] = o
		c.mu.Unlock()
	} else {
		c.invalidate() // created since the snapshot
	}
	return o, nil
}

// show is the show the queue page links to, read once per process (its
// title, theatre and start change seldom; a deleted one is left out).
func (c *onSaleCache) show(ctx context.Context, id string) (booking.Show, bool, error) {
	c.mu.Lock()
	sh, ok := c.shows[id]
	c.mu.Unlock()
	if ok {
		return sh, true, nil
	}
	sh, err := c.svc.Show(ctx, id)
	if errors.Is(err, booking.ErrShowNotFound) {
		return booking.Show{}, false, nil
	}
	if err != nil {
		return booking.Show{}, false, err
	}
	c.mu.Lock()
	if len(c.shows) >= onSaleKept {
		clear(c.shows)
	}
	c.shows[id] = sh
	c.mu.Unlock()
	return sh, true, nil
}

// looksLikeID reports whether id could be a booking.NewID.
func looksLikeID(id string) bool {
	if len(id) != 26 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '2' && r <= '7') {
			return false
		}
	}
	return true
}
