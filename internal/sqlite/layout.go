package sqlite

import (
	"container/list"
	"slices"
	"strings"
	"sync"

	"boxoffice/internal/booking"
)

// layoutCacheShows is how many shows' layouts the cache keeps, so that its
// memory does not grow with the catalog; what a full cache of 500-seat
// shows weighs is in docs/PERFORMANCE.md ("The seat layout cache").
const layoutCacheShows = 256

// layout is the part of a show's seats that CreateShow writes and nothing
// ever changes: ids, rows, numbers, grid places, categories, prices and
// kinds, in map order, each seat available. It is shared by every reader
// and never modified, so it needs no lock of its own and protects no seat:
// the seats' state (status, hold, lock time, booking) is always read from
// the database, which returns every seat that is not available.
type layout struct {
	seats []booking.Seat // map order, available, other state fields zero
	byID  []int          // byID[k] is the index in seats of the k-th seat in seat_id order
}

func newLayout(seats []booking.Seat) *layout {
	l := &layout{seats: make([]booking.Seat, len(seats))}
	for i, s := range seats {
		l.seats[i] = booking.Seat{
			ShowID: s.ShowID, ID: s.ID, Row: s.Row, Number: s.Number, GridRow: s.GridRow, GridCol: s.GridCol,
			Category: s.Category, Price: s.Price, Kind: s.Kind, Status: booking.SeatAvailable,
		}
	}
	l.byID = make([]int, len(seats))
	for i := range l.byID {
		l.byID[i] = i
	}
	// SQLite's BINARY collation, which orders the primary key, compares
	// bytes as strings.Compare does.
	slices.SortFunc(l.byID, func(a, b int) int { return strings.Compare(l.seats[a].ID, l.seats[b].ID) })
	return l
}

// seat is the seat with id as laid out (available), and whether l has it.
func (l *layout) seat(id string) (booking.Seat, bool) {
	k, ok := slices.BinarySearchFunc(l.byID, id, func(i int, id string) int { return strings.Compare(l.seats[i].ID, id) })
	if !ok {
		return booking.Seat{}, false
	}
	return l.seats[l.byID[k]], true
}

// layoutCache is a bounded LRU of layouts by show id.
type layoutCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of showIDs, most recently used first
	items map[string]*layoutEntry
}

type layoutEntry struct {
	l    *layout
	elem *list.Element
}

func newLayoutCache(max int) *layoutCache {
	return &layoutCache{max: max, order: list.New(), items: map[string]*layoutEntry{}}
}

func (c *layoutCache) get(showID string) *layout {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.items[showID]
	if e == nil {
		return nil
	}
	c.order.MoveToFront(e.elem)
	return e.l
}

func (c *layoutCache) put(showID string, l *layout) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.items[showID]; e != nil {
		c.order.MoveToFront(e.elem)
		return
	}
	c.items[showID] = &layoutEntry{l: l, elem: c.order.PushFront(showID)}
	for c.order.Len() > c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(string))
	}
}

func (c *layoutCache) remove(showID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.items[showID]; e != nil {
		c.order.Remove(e.elem)
		delete(c.items, showID)
	}
}
