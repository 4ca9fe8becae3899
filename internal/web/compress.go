package web

import (
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v4"
)

// compressMinSize is the smallest body compressed: below about a packet,
// gzip's header and the work save nothing worth having.
const compressMinSize = 1024

// gzipLevel is the level of responses compressed as they are sent: the
// fastest, since pages are compressed on every request during a rush.
// Static assets are compressed once, at the best level (static.go).
const gzipLevel = gzip.BestSpeed

// compress gzips text responses (HTML pages and fragments, CSS, JS, JSON,
// CSV) for clients that accept gzip (SPEC §8), with klauspost/compress's
// gzhttp. It wraps the response writer under Echo's Response, so the
// session's commit (which runs when the headers are written) has set its
// cookie before gzhttp decides. Bodies under compressMinSize, bodies
// without content (204, 304, HEAD), partial content, and responses already
// encoded (the precompressed static assets, promhttp's own gzip) are sent
// as they are; every response says Vary: Accept-Encoding. Only gzip: zstd
// is off, so what a client gets is what SPEC §8 promises.
func (s *Server) compress() echo.MiddlewareFunc {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(compressMinSize),
		gzhttp.CompressionLevel(gzipLevel),
		gzhttp.ContentTypeFilter(compressibleType),
		gzhttp.EnableZstd(false),
	)
	if err != nil {
		panic("web: gzhttp options: " + err.Error()) // constants: a programming error
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			res := c.Response()
			outer := res.Writer
			defer func() { res.Writer = outer }()
			wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				res.Writer = w
				// Errors are answered here, so that the error page is
				// compressed and finished with the rest.
				if err := next(c); err != nil {
					c.Error(err)
				}
			})).ServeHTTP(outer, c.Request())
			return nil
		}
	}
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
