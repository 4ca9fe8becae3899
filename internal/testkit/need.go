package testkit

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"boxoffice/static"
)

// SkipUnlessCI skips the test, saying why, unless the environment variable
// CI is set, where it fails it instead: CI installs every tool and asset
// the tests need, so there a test that cannot run must not pass as a
// skip. must says, for the failure, what has to run there.
func SkipUnlessCI(t testing.TB, why, must string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI is set, and %s", why, must)
	}
	t.Skip("SKIPPED: " + why)
}

// NeedAssets skips the test, or fails it under CI (SkipUnlessCI), when
// this build lacks the npm-built files of static/vendor (static.Vendored,
// put there by make assets): pages without them do not work, and a
// boxoffice built without them refuses to serve (static.Check).
func NeedAssets(t testing.TB) {
	t.Helper()
	var missing []string
	for _, name := range static.Vendored {
		if _, err := fs.Stat(static.FS, name); err != nil {
			missing = append(missing, "static/"+name)
		}
	}
	if len(missing) > 0 {
		SkipUnlessCI(t, strings.Join(missing, " and ")+" missing: run make assets",
			"a test that needs the browser assets must run there")
	}
}
