// Package static embeds the browser assets: our own CSS and JS, and the
// third-party files npm puts in vendor/ at build time (see the Makefile).
package static

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// FS holds css/, js/ and vendor/ as they were at build time.
//
//go:embed css js vendor
var FS embed.FS

// Vendored are the files of vendor/ that npm provides and the pages load.
// A plain go build on a fresh clone embeds none of them.
var Vendored = []string{
	"vendor/htmx.min.js", // every page
	"vendor/jsQR.js",     // the door's QR decoder
}

// Check reports whether FS holds the vendored browser assets. Without them
// every page would load but none would work, so a server should refuse to
// start: the binary was built with go build rather than make build.
func Check() error { return check(FS) }

func check(fsys fs.FS) error {
	var missing []string
	for _, name := range Vendored {
		if _, err := fs.Stat(fsys, name); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("static: %s: %w", name, err)
			}
			missing = append(missing, "static/"+name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("this binary was built without its browser assets (%s missing): build it with make build, or run make assets before go build",
			strings.Join(missing, ", "))
	}
	return nil
}
