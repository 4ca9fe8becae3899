package web

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// compressMinSize is the smallest body compressed: below about a packet,
// gzip's header and the work save nothing worth having.
const compressMinSize = 1024

// gzipLevel is the level of responses compressed as they are sent. The
// 200-seat map page (81 KB) comes out 6.9 KB in 0.2 ms at BestSpeed, and
// 5.8 KB in 1.0 ms at the default level (one core of a 2-core AMD EPYC,
// pooled writers): a millisecond per page at an on-sale rush buys 1 KB.
// Static assets are compressed once, at the best level (static.go).
const gzipLevel = gzip.BestSpeed

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzipLevel)
	return w
}}

// compress gzips text responses (HTML pages and fragments, CSS, JS, JSON,
// CSV) for clients that accept gzip (SPEC §8). It wraps the response
// writer under Echo's Response, so the session's commit (which runs when
// the headers are written) has set its cookie before the decision is made
// here. Bodies under compressMinSize, bodies without content (204, 304,
// HEAD), partial content, and responses already encoded (the precompressed
// static assets, promhttp's own gzip) are sent as they are. Every response
// of a compressible type says Vary: Accept-Encoding, compressed or not, so
// that a cache keeps the two apart.
func (s *Server) compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		if _, ok := res.Writer.(*gzipResponseWriter); ok || c.Request().Method == http.MethodHead {
			return next(c)
		}
		w := &gzipResponseWriter{ResponseWriter: res.Writer, accepts: acceptsGzip(c.Request().Header)}
		res.Writer = w
		defer func() {
			w.finish()
			res.Writer = w.ResponseWriter
		}()
		// Errors are answered here, so that the error page is compressed
		// and finished with the rest.
		if err := next(c); err != nil {
			c.Error(err)
		}
		return nil
	}
}

// gzipResponseWriter holds back the headers of a compressible response
// until it has compressMinSize bytes of body (or the body ends), then sends
// it compressed or as it is.
type gzipResponseWriter struct {
	http.ResponseWriter
	accepts bool // the client accepts gzip
	state   gzipState
	status  int
	buf     []byte
	gz      *gzip.Writer
}

type gzipState int

const (
	gzipIdle      gzipState = iota // no header yet
	gzipBuffering                  // header held back, body buffered
	gzipPlain                      // passed through
	gzipOn                         // compressing
	gzipDone
)

func (w *gzipResponseWriter) WriteHeader(code int) {
	if code < 200 { // informational: not the response's own header
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if w.state != gzipIdle {
		return
	}
	w.status = code
	h := w.Header()
	ct := h.Get("Content-Type")
	if ct != "" && compressibleType(ct) {
		addVary(h, "Accept-Encoding")
	}
	if !w.accepts || !mayCompress(code, h) || ct != "" && !compressibleType(ct) {
		w.state = gzipPlain
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.state = gzipBuffering
}

func (w *gzipResponseWriter) Write(p []byte) (int, error) {
	if w.state == gzipIdle {
		w.WriteHeader(http.StatusOK)
	}
	switch w.state {
	case gzipPlain:
		return w.ResponseWriter.Write(p)
	case gzipOn:
		return w.gz.Write(p)
	case gzipBuffering:
		w.buf = append(w.buf, p...)
		if len(w.buf) >= compressMinSize {
			if err := w.start(); err != nil {
				return 0, err
			}
		}
		return len(p), nil
	}
	return 0, http.ErrBodyNotAllowed // after finish
}

// start sends the held-back header, compressed when the body is of a
// compressible type (sniffed, as net/http would, when the handler set
// none), and the buffered body after it.
func (w *gzipResponseWriter) start() error {
	h := w.Header()
	if h.Get("Content-Type") == "" && len(w.buf) > 0 {
		h.Set("Content-Type", http.DetectContentType(w.buf))
	}
	buf := w.buf
	w.buf = nil
	if !compressibleType(h.Get("Content-Type")) {
		w.state = gzipPlain
		w.ResponseWriter.WriteHeader(w.status)
		_, err := w.ResponseWriter.Write(buf)
		return err
	}
	addVary(h, "Accept-Encoding")
	h.Set("Content-Encoding", "gzip")
	h.Del("Content-Length") // of the body before compression
	h.Del("Accept-Ranges")
	// ETags are left as they are: ours (seat map, booking status) name the
	// state shown, not the bytes, and only If-None-Match, which compares
	// weakly, uses them.
	w.state = gzipOn
	w.ResponseWriter.WriteHeader(w.status)
	w.gz = gzipWriters.Get().(*gzip.Writer)
	w.gz.Reset(w.ResponseWriter)
	_, err := w.gz.Write(buf)
	return err
}

// finish ends the response: a body still held back is too small to
// compress and is sent as it is.
func (w *gzipResponseWriter) finish() {
	switch w.state {
	case gzipBuffering:
		w.state = gzipPlain
		w.ResponseWriter.WriteHeader(w.status)
		if len(w.buf) > 0 {
			_, _ = w.ResponseWriter.Write(w.buf)
		}
		w.buf = nil
	case gzipOn:
		_ = w.gz.Close() // a client gone away is nobody to tell
		w.gz.Reset(io.Discard)
		gzipWriters.Put(w.gz)
		w.gz = nil
	}
	w.state = gzipDone
}

// Flush sends what is held back, compressed as far as it goes.
func (w *gzipResponseWriter) Flush() {
	if w.state == gzipBuffering {
		_ = w.start()
	}
	if w.state == gzipOn {
		_ = w.gz.Flush()
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *gzipResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// mayCompress reports whether a response with status and header may be
// sent gzipped: it has a body, all of it, not already encoded.
func mayCompress(status int, h http.Header) bool {
	switch status {
	case http.StatusNoContent, http.StatusNotModified, http.StatusPartialContent:
		return false
	}
	return h.Get("Content-Encoding") == "" && h.Get("Content-Range") == "" &&
		!strings.Contains(h.Get("Cache-Control"), "no-transform")
}

// compressibleType reports whether a body of content type ct is text that
// gzip shrinks. Event streams are text too, but must not wait in a buffer.
func compressibleType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	switch {
	case mt == "text/event-stream":
		return false
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/javascript", "application/json", "application/xml", "image/svg+xml":
		return true
	}
	return false
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip:
// named with a q above 0, or not named and * is.
func acceptsGzip(h http.Header) bool {
	star := false
	for _, v := range h.Values("Accept-Encoding") {
		for _, item := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(item, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			ok := qualityAboveZero(params)
			switch name {
			case "gzip", "x-gzip":
				return ok
			case "*":
				star = ok
			}
		}
	}
	return star
}

func qualityAboveZero(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q > 0
		}
	}
	return true
}

// addVary adds name to the response's Vary unless it is there.
func addVary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, name) {
				return
			}
		}
	}
	h.Add("Vary", name)
}
