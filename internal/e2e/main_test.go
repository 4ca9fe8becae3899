package e2e

import (
	"flag"
	"os"
	"testing"

	"boxoffice/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the screenshots in docs/screenshots/")

// TestMain runs the tests, then closes the shared Chromium and removes the
// boxoffice binary that the first server built (testkit.BuildBinary).
func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	defer closeChromium()
	return testkit.Run(m)
}
