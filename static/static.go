// Package static embeds the browser assets: our own CSS and JS, and the
// third-party files npm puts in vendor/ at build time (see the Makefile).
package static

import "embed"

// FS holds css/, js/ and vendor/ as they were at build time.
//
//go:embed css js vendor
var FS embed.FS
