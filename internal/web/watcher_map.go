package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/i18n"
	"boxoffice/views/partials"
)

// watcherMaps keep, per show and language, the seat map fragment as served
// to watchers:
// visitors without a visitor id of their own, who hold nothing and chose
// nothing that the fragment shows (SPEC §18, "a map that costs the same
// for 10 or 10,000 watchers"). A show's fragment in a language is
// rendered, and compressed, at most once every watcherMapAge in this
// process, whoever asks: the first watcher after that renders it while the others wait for
// those bytes, and everyone else is served them as they are, with their
// ETag. A watcher's map may so be up to watcherMapAge old; the page
// itself, a viewer with a session, and every answer to a viewer's own
// action are current, and the browser still frees lapsed locks on screen
// by the seat rule.
type watcherMaps struct {
	mu    sync.Mutex
	shows map[watcherKey]*watcherMap
}

// watcherKey is a show in a language: its fragment and its ETag are the
// language's (SPEC §18).
type watcherKey struct {
	show string
	lang i18n.Lang
}

// watcherMap is one show's fragment for watchers in one language.
type watcherMap struct {
	mu       sync.Mutex // held while it is rendered: one render at a time
	rendered bool
	at       time.Time // when it was rendered, by the service's clock
	wall     time.Time // and by this host's
	etag     string
	html, gz []byte
}

// watcherMapAge is how old a watcher's map may be.
const watcherMapAge = time.Second

// watcherMapShows bounds how many fragments (a show in a language) are
// kept.
const watcherMapShows = 64

func newWatcherMaps() *watcherMaps { return &watcherMaps{shows: map[watcherKey]*watcherMap{}} }

// entry is k's fragment, made empty when there is none yet.
func (w *watcherMaps) entry(k watcherKey) *watcherMap {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e, ok := w.shows[k]; ok {
		return e
	}
	if len(w.shows) >= watcherMapShows {
		for id := range w.shows { // any one: map order is random
			delete(w.shows, id)
			break
		}
	}
	e := &watcherMap{}
	w.shows[k] = e
	return e
}

// forget drops k's entry if it is still e (a show that could not be
// drawn is not kept).
func (w *watcherMaps) forget(k watcherKey, e *watcherMap) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shows[k] == e {
		delete(w.shows, k)
	}
}

// serveWatcherMap answers a watcher's poll of showID's seat map fragment
// from the shared bytes of the request's language, rendering them first
// when they are older than watcherMapAge.
func (s *Server) serveWatcherMap(c echo.Context, showID string) error {
	k := watcherKey{show: showID, lang: localizer(c).Lang}
	e := s.watchers.entry(k)
	e.mu.Lock()
	if !e.rendered || e.stale(s.svc.Now().Now, time.Now()) {
		if err := s.renderWatcherMap(c.Request().Context(), showID, e); err != nil {
			e.mu.Unlock()
			s.watchers.forget(k, e)
			return err
		}
	}
	etag, html, gz := e.etag, e.html, e.gz
	e.mu.Unlock()

	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	addVary(h, "Accept-Encoding")
	if acceptsGzip(c.Request().Header) {
		// Compressed once for every watcher; the compress middleware
		// passes a response already encoded.
		h.Set("Content-Encoding", "gzip")
		return c.Blob(http.StatusOK, echo.MIMETextHTMLCharsetUTF8, gz)
	}
	return c.Blob(http.StatusOK, echo.MIMETextHTMLCharsetUTF8, html)
}

// stale reports whether e is watcherMapAge old by the service's clock or by
// this host's. They are one clock but in tests, which move the service's
// (and may stop it).
func (e *watcherMap) stale(now, wall time.Time) bool {
	return now.Sub(e.at) >= watcherMapAge || now.Before(e.at) || wall.Sub(e.wall) >= watcherMapAge
}

// renderWatcherMap reads showID's seat map as a viewer without a hold sees
// it and keeps its fragment in e, plain and gzipped, at the service's
// instant, in the language of ctx.
func (s *Server) renderWatcherMap(ctx context.Context, showID string, e *watcherMap) error {
	sm, err := s.svc.SeatMap(ctx, showID, "")
	if err != nil {
		return err
	}
	m, err := s.plainSeatMap(ctx, sm)
	if err != nil {
		return err
	}
	var html bytes.Buffer
	if err := partials.SeatMap(m).Render(ctx, &html); err != nil {
		return errorf("web: render the watchers' map: %w", err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression) // a valid level: no error
	if _, err := zw.Write(html.Bytes()); err != nil {
		return errorf("web: compress the watchers' map: %w", err)
	}
	if err := zw.Close(); err != nil {
		return errorf("web: compress the watchers' map: %w", err)
	}
	e.rendered, e.at, e.wall, e.etag, e.html, e.gz = true, sm.At.Now, time.Now(), m.ETag, html.Bytes(), gz.Bytes()
	return nil
}
