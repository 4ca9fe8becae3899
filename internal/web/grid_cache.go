package web

import (
	"bytes"
	"context"
	"sync"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
	"boxoffice/views/partials"
)

// gridCache keeps, for the shows drawn most recently, the seat grid as
// drawn for viewers without a hold or a choice of their own
// (partials.SeatGrid's HTML), per language, under the seat map's ETag: the
// same seats in the same states draw the same bytes in one language, since
// a show's layout never changes. Everyone watching a show between two holds then shares one
// drawing, and the seat map page spares drawing the grid again: measured
// by BenchmarkSeatMapPage and by the seat map page of
// ../shared/bench/sidebyside.sh (docs/PERFORMANCE.md, "The seat grid
// kept").
type gridCache struct {
	mu    sync.Mutex
	shows map[gridKey]grid // the latest drawing only
}

// gridKey is a show's grid in one language: the seats' accessible names
// are in it.
type gridKey struct {
	show string
	lang i18n.Lang
}

// grid is one drawing, with what the rest of the page needs to know of its
// seats.
type grid struct {
	etag                                         string
	html                                         string
	noneFree, wheelchair, companion, unavailable bool
}

// gridCacheShows bounds the cache's memory, one grid a show and language
// (what a grid weighs: docs/PERFORMANCE.md, "The seat grid kept").
const gridCacheShows = 32

func newGridCache() *gridCache { return &gridCache{shows: map[gridKey]grid{}} }

func (g *gridCache) get(k gridKey, etag string) (grid, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	d, ok := g.shows[k]
	return d, ok && d.etag == etag
}

func (g *gridCache) put(k gridKey, d grid) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.shows[k]; !ok && len(g.shows) >= gridCacheShows {
		for id := range g.shows { // any one: map order is random
			delete(g.shows, id)
			break
		}
	}
	g.shows[k] = d
}

// plainSeatMap is seatMapModel for a viewer with no selection, in the
// language of ctx (i18n.From).
func (s *Server) plainSeatMap(ctx context.Context, sm booking.SeatMap) (model.SeatMap, error) {
	m := s.seatMapHead(i18n.From(ctx), sm, selection{})
	err := s.plainSeats(ctx, &m, sm)
	return m, err
}

// plainSeats draws sm's seats on m, the head of a map for a viewer with no
// selection, in the language of ctx: for one without a hold, the grid
// comes from the cache, or is drawn and kept.
func (s *Server) plainSeats(ctx context.Context, m *model.SeatMap, sm booking.SeatMap) error {
	loc := i18n.From(ctx)
	if sm.MyHold != nil {
		s.drawSeats(loc, m, sm, selection{})
		return nil
	}
	key := gridKey{show: sm.Show.ID, lang: loc.Lang}
	if d, ok := s.grids.get(key, m.ETag); ok {
		m.Grid, m.NoneFree, m.Wheelchair, m.Companion, m.Unavailable = d.html, d.noneFree, d.wheelchair, d.companion, d.unavailable
		return nil
	}
	s.drawSeats(loc, m, sm, selection{})
	var buf bytes.Buffer
	if err := partials.SeatGrid(*m).Render(ctx, &buf); err != nil {
		return err
	}
	d := grid{etag: m.ETag, html: buf.String(), noneFree: m.NoneFree, wheelchair: m.Wheelchair, companion: m.Companion,
		unavailable: m.Unavailable}
	s.grids.put(key, d)
	m.Grid, m.Bands = d.html, nil
	return nil
}
