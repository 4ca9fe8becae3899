package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"boxoffice/static"
)

// assets serves the embedded static files under a prefix that changes with
// their content, so that they can be cached for a year.
type assets struct {
	version string
	prefix  string            // "/static/<version>"
	gzipped map[string][]byte // each compressible file, gzipped at the best level
}

// embeddedAssets are the version and the gzipped files of static.FS,
// worked out once per process: the files are compiled in, so they are the
// same for every server.
var embeddedAssets = sync.OnceValue(func() *assets {
	h := sha256.New()
	gzipped := map[string][]byte{}
	_ = fs.WalkDir(static.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static.FS, p)
		if err != nil {
			return err
		}
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write(b)
		if len(b) >= compressMinSize && compressibleType(contentType(p)) {
			if gz := gzipBest(b); len(gz) < len(b) {
				gzipped[p] = gz
			}
		}
		return nil
	})
	v := hex.EncodeToString(h.Sum(nil))[:12]
	return &assets{version: v, prefix: "/static/" + v, gzipped: gzipped}
})

func newAssets() *assets { return embeddedAssets() }

func gzipBest(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

func contentType(name string) string {
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// staticRoute is the route of every asset.
const staticRoute = "/static/:version/*"

// handleStatic serves GET /static/:version/*. A stale version (a page from
// before a deploy) still gets today's file, but not the long cache. A
// client that accepts gzip gets the file compressed at start, which
// compress then passes through.
func (s *Server) handleStatic(c echo.Context) error {
	name := path.Clean(strings.TrimPrefix(c.Param("*"), "/"))
	if name == "." || strings.HasPrefix(name, "..") || strings.HasSuffix(name, ".txt") {
		return echo.ErrNotFound
	}
	b, err := fs.ReadFile(static.FS, name)
	if err != nil {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	if c.Param("version") == s.assets.version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	ctype := contentType(name)
	if gz, ok := s.assets.gzipped[name]; ok {
		addVary(h, "Accept-Encoding")
		if acceptsGzip(c.Request().Header) {
			h.Set("Content-Encoding", "gzip")
			b = gz
		}
	}
	return c.Blob(http.StatusOK, ctype, b)
}
