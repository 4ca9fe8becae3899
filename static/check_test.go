package static_test

import (
	"os"
	"strings"
	"testing"

	"boxoffice/internal/testkit"
	"boxoffice/static"
)

// TestCheck: once make assets has put the vendored files in static/vendor
// (make test runs it first), the build embeds them and Check passes.
// Without them on disk the test skips, saying so, or fails under CI
// (testkit.SkipUnlessCI).
func TestCheck(t *testing.T) {
	var missing []string
	for _, name := range static.Vendored {
		if _, err := os.Stat(name); err != nil { // the test runs in static/
			missing = append(missing, "static/"+name)
		}
	}
	if len(missing) > 0 {
		testkit.SkipUnlessCI(t, strings.Join(missing, " and ")+" missing: run make assets", "the embedded assets must be checked there")
	}
	if err := static.Check(); err != nil {
		t.Fatalf("Check() = %v, though static/vendor has every file", err)
	}
}
