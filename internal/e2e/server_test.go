package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boxoffice/internal/testkit"
)

const (
	webhookSecret = "whsec_e2e_0123456789abcdef"
	adminEmail    = "admin@example.com"
	adminPassword = "e2e-admin-password"
)

// server is one real boxoffice serve process on a free port of 127.0.0.1,
// with its own SQLite file and the demo catalog.
type server struct {
	URL string
}

// startServer starts boxoffice serve with settings for a test, env
// overriding them (HOLD_TTL=3s, ADMIN_EMAIL=…). When the test ends, the
// process gets SIGTERM and must exit with status 0; its log is shown when
// the test failed.
func startServer(t *testing.T, env ...string) *server {
	t.Helper()
	bin := testkit.BuildBinary(t)
	// Another process may take the free port between our look and the
	// server's listen: try again then.
	for attempt := 1; ; attempt++ {
		s, err := tryStartServer(t, bin, env)
		if err == nil {
			return s
		}
		if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatal(err)
		}
	}
}

func tryStartServer(t *testing.T, bin string, env []string) (*server, error) {
	t.Helper()
	addr, err := testkit.FreeAddr()
	if err != nil {
		return nil, err
	}
	base := "http://" + addr
	dbPath := filepath.Join(t.TempDir(), "db.sqlite")
	// Only what the process needs from ours, so that no setting of the
	// developer's shell leaks in; later entries win over earlier ones.
	vars := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(), "TZ=Asia/Kolkata"}
	vars = append(vars,
		"ADDR="+addr,
		"DATABASE_URL=sqlite:"+dbPath,
		"PUBLIC_URL="+base,
		"PAYMENT_WEBHOOK_SECRET="+webhookSecret,
		"SEED_DEMO=true",
		"HOLD_RATE=0",
		// The journeys pick seats for what they test; the single-gap rule
		// has tests of its own (TestGapJourney sets SEAT_GAPS=refuse).
		"SEAT_GAPS=allow",
	)
	vars = append(vars, env...)
	if _, err := testkit.TryStart(t, bin, vars, "serve"); err != nil {
		return nil, err
	}
	return &server{URL: base}, nil
}

var (
	showIDAttr = regexp.MustCompile(`data-show-id="([^"]+)"`)
	dateLink   = regexp.MustCompile(`href="(/\?date=\d{4}-\d{2}-\d{2})"`)
)

// showIDs are the shows of the listing, in its order, each once: those of
// the date / opens on, then of each other date of its strip.
func (s *server) showIDs(t *testing.T) []string {
	t.Helper()
	get := func(path string) []byte {
		t.Helper()
		res, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
		}
		return body
	}
	home := get("/")
	pages := [][]byte{home}
	for _, m := range dateLink.FindAllSubmatch(home, -1) {
		pages = append(pages, get(string(m[1])))
	}
	var ids []string
	seen := map[string]bool{}
	for _, body := range pages {
		for _, m := range showIDAttr.FindAllSubmatch(body, -1) {
			if id := string(m[1]); !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	if len(ids) < 6 {
		t.Fatalf("the listing's dates list %d shows; the demo catalog has more", len(ids))
	}
	return ids
}
