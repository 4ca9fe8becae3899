package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/static"
)

// assets serves the embedded static files under a prefix that changes with
// their content, so that they can be cached for a year.
type assets struct {
	version string
	prefix  string // "/static/<version>"
}

func newAssets() *assets {
	h := sha256.New()
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
		return nil
	})
	v := hex.EncodeToString(h.Sum(nil))[:12]
	return &assets{version: v, prefix: "/static/" + v}
}

// staticRoute is the route of every asset.
const staticRoute = "/static/:version/*"

// handleStatic serves GET /static/:version/*. A stale version (a page from
// before a deploy) still gets today's file, but not the long cache.
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
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	return c.Blob(http.StatusOK, ctype, b)
}
