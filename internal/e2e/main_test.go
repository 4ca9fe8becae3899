package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the screenshots in docs/screenshots/")

// binary is the boxoffice binary that TestMain built, shared by every test
// of the run; empty in -short mode, where the tests skip.
var binary string

// TestMain builds the real binary once, runs the tests, and closes the
// shared Chromium.
func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if !testing.Short() {
		dir, err := os.MkdirTemp("", "boxoffice-e2e-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "boxoffice")
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		build := exec.Command(goTool, "build", "-o", binary, "./cmd/boxoffice")
		build.Dir = filepath.Join("..", "..") // the module's root
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build ./cmd/boxoffice: %v\n%s", err, out)
			return 1
		}
	}
	defer closeChromium()
	return m.Run()
}
