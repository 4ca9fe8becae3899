package static

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestCheckMissing: a build without the npm files, as a plain go build on a
// fresh clone makes, is refused with what is missing and what to run.
func TestCheckMissing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fsys    fstest.MapFS
		missing []string
	}{
		{"fresh clone", fstest.MapFS{"vendor/README.txt": {}, "js/requests.js": {}}, Vendored},
		{"no jsQR", fstest.MapFS{"vendor/htmx.min.js": {}}, []string{"vendor/jsQR.js"}},
		{"no htmx", fstest.MapFS{"vendor/jsQR.js": {}}, []string{"vendor/htmx.min.js"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := check(tc.fsys)
			if err == nil {
				t.Fatal("check = nil, want an error")
			}
			msg := err.Error()
			for _, name := range tc.missing {
				if !strings.Contains(msg, "static/"+name) {
					t.Errorf("error %q does not name static/%s", msg, name)
				}
			}
			if !strings.Contains(msg, "make build") {
				t.Errorf("error %q does not say to use make build", msg)
			}
		})
	}
	all := fstest.MapFS{}
	for _, name := range Vendored {
		all[name] = &fstest.MapFile{}
	}
	if err := check(all); err != nil {
		t.Errorf("check with every vendored file = %v, want nil", err)
	}
}

// TestDockerfileCopiesEveryVendoredFile: the image builds with a plain go
// build, so its Dockerfile must put every vendored file in place first, or
// the binary would refuse to start (Check).
func TestDockerfileCopiesEveryVendoredFile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Vendored {
		if !strings.Contains(string(b), " static/"+f) {
			t.Errorf("the Dockerfile does not copy static/%s", f)
		}
	}
}
