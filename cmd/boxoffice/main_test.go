package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/google/go-cmp/cmp"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
	"boxoffice/internal/config"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/testkit"
)

// env returns a getenv over kv, so tests never read the real environment.
func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// TestMain runs the tests, then removes the binary testkit.BuildBinary built.
func TestMain(m *testing.M) {
	os.Exit(testkit.Run(m))
}

// serve starts bin serve with env added to ours and waits until it
// listens. At the end of the test it gets SIGTERM and must exit with status
// 0 within its shutdown grace and 5s.
func serve(t *testing.T, bin string, env ...string) *testkit.Process {
	t.Helper()
	p := testkit.Start(t, bin, append(os.Environ(), env...), "serve")
	p.StopWithin = shutdownGrace + 5*time.Second
	return p
}

func tempDatabaseURL(t *testing.T) (url, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "boxoffice.db")
	return "sqlite:" + path, path
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"serve", "-h"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), args, env(nil), &stdout, &stderr); err != nil {
				t.Fatalf("run: %v", err)
			}
			out := stdout.String()
			for _, v := range config.Vars {
				if !strings.Contains(out, v.Env) || !strings.Contains(out, "--"+v.Flag) {
					t.Errorf("help lacks %s / --%s", v.Env, v.Flag)
				}
			}
			// SPEC §4, written out here rather than read from config.Vars, so
			// that a variable dropped from that table is noticed: each has a
			// line of its own naming its flag and its default.
			lines := strings.Split(out, "\n")
			for _, v := range []struct{ env, flag, def, note string }{
				{"ADDR", "--addr", ":8080", ""},
				{"DATABASE_URL", "--database-url", "sqlite:data/boxoffice.db", ""},
				{"HOLD_TTL", "--hold-ttl", "15m", ""},
				{"MAX_SEATS", "--max-seats", "10", ""},
				{"PAYMENT_WEBHOOK_SECRET", "--payment-webhook-secret", "(unset)", "generated and printed at start"},
				{"PUBLIC_URL", "--public-url", "http://localhost:8080", ""},
				{"ADMIN_EMAIL", "--admin-email", "(unset)", ""},
				{"ADMIN_PASSWORD", "--admin-password", "(unset)", ""},
				{"SEED_DEMO", "--seed-demo", "true", ""},
				{"HOLD_RATE", "--hold-rate", "20", ""},
			} {
				// FLAG VARIABLE DEFAULT MEANING
				i := slices.IndexFunc(lines, func(l string) bool {
					f := strings.Fields(l)
					return len(f) >= 3 && f[0] == v.flag && f[1] == v.env
				})
				if i < 0 {
					t.Errorf("help has no line for SPEC §4's %s (%s):\n%s", v.env, v.flag, out)
					continue
				}
				if got := strings.Fields(lines[i])[2]; got != v.def {
					t.Errorf("help gives %s the default %q, want %q", v.env, got, v.def)
				}
				if !strings.Contains(lines[i], v.note) {
					t.Errorf("help's line of %s does not say %q: %q", v.env, v.note, lines[i])
				}
			}
			for _, want := range []string{"serve", "seed", "migrate", "healthcheck", "--shows", "--rows", "--cols"} {
				if !strings.Contains(out, want) {
					t.Errorf("help lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{name: "unknown command", args: []string{"dance"}, want: `unknown command "dance"`},
		{name: "unknown flag", args: []string{"serve", "--colour=blue"}, want: "flag provided but not defined"},
		{name: "bad config", args: []string{"serve"}, env: map[string]string{"MAX_SEATS": "0"}, want: "MAX_SEATS"},
		{name: "seed rows", args: []string{"seed", "--rows", "0"}, want: "rows must be from 1"},
		{name: "seed cols", args: []string{"seed", "--cols", "1000"}, want: "cols must be from 1 to 999"},
		{name: "seed shows", args: []string{"seed", "--shows", "0"}, want: "--shows must be at least 1"},
		{name: "seed starts-at", args: []string{"seed", "--starts-at", "tomorrow"}, want: "not an RFC 3339 time"},
		{name: "seed every", args: []string{"seed", "--every", "-1h"}, want: "--every must be a positive duration"},
		{name: "seed price", args: []string{"seed", "--price", "-1"}, want: "--price must be from 1"},
		{name: "seed tax rate", args: []string{"seed", "--tax-rate", "101"}, want: "--tax-rate: The tax rate \"101\" must be a percent from 0 to 100"},
		{name: "seed rent", args: []string{"seed", "--rent", "50,x"}, want: "--rent: The rental terms \"50,x\" must be percents"},
		{name: "migrate database", args: []string{"migrate"}, env: map[string]string{"DATABASE_URL": "redis://x"}, want: `unknown scheme "redis"`},
		{name: "password hidden", args: []string{"serve"}, env: map[string]string{"DATABASE_URL": "mongodb://app:S3cret@db:27x17/box"}, want: `"mongodb://app:xxxxx@db:27x17/box"`},
		{name: "https needs a secret", args: []string{"serve"}, env: map[string]string{"PUBLIC_URL": "https://tickets.example.com"}, want: "PAYMENT_WEBHOOK_SECRET must be set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), tt.args, env(tt.env), io.Discard, io.Discard)
			var u usageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run(%q) = %v, want a usage error containing %q", tt.args, err, tt.want)
			}
		})
	}
}

// TestMongoUnreachable proves that a mongodb:// DATABASE_URL selects the
// MongoDB adapter and that a deployment nobody answers for is a clear error,
// not a hang. Nothing listens on port 1.
func TestMongoUnreachable(t *testing.T) {
	url := "mongodb://127.0.0.1:1/boxoffice?serverSelectionTimeoutMS=300&connectTimeoutMS=300"
	err := run(context.Background(), []string{"migrate"}, env(map[string]string{"DATABASE_URL": url}), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "mongo") {
		t.Errorf("migrate on an unreachable MongoDB = %v, want an error from the mongo adapter", err)
	}
}

func TestMigrate(t *testing.T) {
	dbURL, path := tempDatabaseURL(t)
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "--database-url", dbURL}, env(nil), &stdout, io.Discard); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	if !strings.Contains(stdout.String(), "migrated "+dbURL) {
		t.Errorf("stdout = %q", stdout.String())
	}
	// Twice is harmless.
	if err := run(context.Background(), []string{"migrate"}, env(map[string]string{"DATABASE_URL": dbURL}), io.Discard, io.Discard); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	store := openStore(t, path)
	if n, err := store.CountShows(context.Background()); err != nil || n != 0 {
		t.Errorf("CountShows after migrate = %d, %v; want 0", n, err)
	}
}

func TestSeed(t *testing.T) {
	dbURL, path := tempDatabaseURL(t)
	var stdout, stderr bytes.Buffer
	args := []string{"seed", "--shows", "3", "--rows", "4", "--cols", "15"}
	if err := run(context.Background(), args, env(map[string]string{"DATABASE_URL": dbURL}), &stdout, &stderr); err != nil {
		t.Fatalf("seed: %v\n%s", err, stderr.String())
	}
	ids := strings.Fields(stdout.String())
	if len(ids) != 3 {
		t.Fatalf("seed printed %q, want 3 show ids", stdout.String())
	}
	if !strings.Contains(stderr.String(), "seeded 3 shows, 180 seats") {
		t.Errorf("stderr = %q", stderr.String())
	}

	ctx := context.Background()
	store := openStore(t, path)
	if n, err := store.CountShows(ctx); err != nil || n != 3 {
		t.Errorf("CountShows = %d, %v; want 3", n, err)
	}
	first := catalog.DefaultSeedStart(time.Now())
	for i, id := range ids {
		seats, err := store.Seats(ctx, id)
		if err != nil {
			t.Fatalf("Seats(%s): %v", id, err)
		}
		if len(seats) != 60 {
			t.Errorf("show %s has %d seats, want 60", id, len(seats))
		}
		show, _ := store.Show(ctx, id)
		if want := first.Add(time.Duration(i) * 3 * time.Hour); !show.StartsAt.Equal(want) || show.Theatre.TimeZone != catalog.SyntheticZone {
			t.Errorf("show %d starts %v in %q, want %v (tomorrow 18:00 in %s, then every 3h)", i, show.StartsAt, show.Theatre.TimeZone, want, catalog.SyntheticZone)
		}
	}
}

// TestSeedTypes: a seeded show has the types of SPEC §20 in order, priced
// from its category's price (adult), half of it (child) and 70 % of it
// (senior) rounded half up, and comp at 0; --price gives every category
// its price; --tax-rate and --rent are stored on its theatre and movie.
func TestSeedTypes(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want map[string][4]booking.Money // category: adult, child, senior, comp
		tax  booking.TaxRate
		rent string
	}{
		{"category prices", nil, map[string][4]booking.Money{
			"Classic": {18000, 9000, 12600, 0}, "Prime": {25000, 12500, 17500, 0}, "Recliner": {45000, 22500, 31500, 0}}, 0, ""},
		{"--price", []string{"--price", "25001", "--tax-rate", "12.5", "--rent", "50,45,40"}, map[string][4]booking.Money{
			"Classic": {25001, 12501, 17501, 0}, "Prime": {25001, 12501, 17501, 0}, "Recliner": {25001, 12501, 17501, 0}}, 1250, "50,45,40"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dbURL, path := tempDatabaseURL(t)
			var stdout, stderr bytes.Buffer
			args := append([]string{"seed", "--shows", "1", "--rows", "3", "--cols", "2"}, tt.args...)
			if err := run(context.Background(), args, env(map[string]string{"DATABASE_URL": dbURL}), &stdout, &stderr); err != nil {
				t.Fatalf("seed: %v\n%s", err, stderr.String())
			}
			ctx := context.Background()
			store := openStore(t, path)
			id := strings.TrimSpace(stdout.String())
			show, err := store.Show(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var p booking.ShowPrices
			var theatreTypes []booking.TicketType
			err = store.Atomically(ctx, time.Now, func(tx booking.Tx) (err error) {
				if p, err = tx.ShowPrices(id); err != nil {
					return err
				}
				theatreTypes, err = tx.TicketTypes(show.Theatre.ID)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			wantTypes := []booking.TicketType{
				{ID: "adult", Name: "Adult", Online: true, BoxOffice: true},
				{ID: "child", Name: "Child", Note: "under 12", Accompanied: true, Online: true, BoxOffice: true},
				{ID: "senior", Name: "Senior", DoorCheck: true, Online: true, BoxOffice: true},
				{ID: "comp", Name: "Complimentary", BoxOffice: true},
			}
			if diff := cmp.Diff(wantTypes, p.Types); diff != "" {
				t.Errorf("the show's types (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantTypes, theatreTypes); diff != "" {
				t.Errorf("the theatre's types (-want +got):\n%s", diff)
			}
			for cat, prices := range tt.want {
				for i, typ := range []string{"adult", "child", "senior", "comp"} {
					if got, ok := p.Cells.Price(cat, typ); !ok || got != prices[i] {
						t.Errorf("%s × %s = %d (offered %v), want %d", cat, typ, got, ok, prices[i])
					}
				}
			}
			if th, err := store.Theatre(ctx, show.Theatre.ID); err != nil || th.Tax.Rate != tt.tax || th.TimeZone != catalog.SyntheticZone {
				t.Errorf("the seeded theatre %+v, %v; want tax %v in %s", th, err, tt.tax, catalog.SyntheticZone)
			}
			if m, err := store.Movie(ctx, show.Movie.ID); err != nil || m.Rent != tt.rent {
				t.Errorf("the seeded movie %+v, %v; want rent %q", m, err, tt.rent)
			}
		})
	}
}

// TestSeedStartsAtEvery: --starts-at and --every place the shows (SPEC §14).
func TestSeedStartsAtEvery(t *testing.T) {
	dbURL, path := tempDatabaseURL(t)
	var stdout, stderr bytes.Buffer
	args := []string{"seed", "--shows", "3", "--rows", "1", "--cols", "2", "--starts-at", "2030-05-01T10:15:00+05:30", "--every", "90m"}
	if err := run(context.Background(), args, env(map[string]string{"DATABASE_URL": dbURL}), &stdout, &stderr); err != nil {
		t.Fatalf("seed: %v\n%s", err, stderr.String())
	}
	store := openStore(t, path)
	first := time.Date(2030, 5, 1, 4, 45, 0, 0, time.UTC)
	for i, id := range strings.Fields(stdout.String()) {
		show, err := store.Show(context.Background(), id)
		if want := first.Add(time.Duration(i) * 90 * time.Minute); err != nil || !show.StartsAt.Equal(want) {
			t.Errorf("show %d starts %v (%v), want %v", i, show.StartsAt, err, want)
		}
	}
}

func openStore(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// createShow adds to store a show called title, tomorrow, with n Classic
// seats at ₹200 in rows of ten: A1 to A10, then B1, and so on.
func createShow(t *testing.T, store *sqlite.Store, title string, n int) (booking.Show, []booking.Seat) {
	t.Helper()
	show := booking.Show{
		ID: booking.NewID(), Movie: booking.Movie{ID: "m1", Title: title},
		Theatre: booking.Theatre{ID: "t1", Name: "Odeon"}, Screen: "1",
		StartsAt: time.Now().Add(24 * time.Hour), Currency: "INR",
	}
	var seats []booking.Seat
	for i := range n {
		row, number := string(rune('A'+i/10)), i%10+1
		seats = append(seats, booking.Seat{ShowID: show.ID, ID: fmt.Sprintf("%s%d", row, number), Row: row,
			Number: number, GridRow: i / 10, GridCol: i % 10,
			Category: "Classic", Price: 20000, Kind: booking.KindStandard, Status: booking.SeatAvailable})
	}
	if err := booking.CreateShowStep(context.Background(), store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	return show, seats
}

func TestServe(t *testing.T) {
	testkit.NeedAssets(t) // serve refuses to start without them
	dbURL, path := tempDatabaseURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	ready := make(chan string, 1)
	var stdout, stderr testkit.SyncBuffer
	m := &Main{Stdout: &stdout, Stderr: &stderr, Ready: func(u string) { ready <- u }}
	getenv := env(map[string]string{"ADDR": "127.0.0.1:0", "DATABASE_URL": dbURL})
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, nil, getenv) }()

	var baseURL string
	select {
	case baseURL = <-ready:
	case err := <-done:
		t.Fatalf("serve ended before listening: %v\n%s", err, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not listen within 30s\n%s", stderr.String())
	}

	resp, err := http.Get(baseURL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz = %s", resp.Status)
	}

	// The sandbox, the default provider, is announced: in the log at start
	// and on every page.
	if !strings.Contains(stderr.String(), "SANDBOX PAYMENTS") {
		t.Errorf("no sandbox warning at start:\n%s", stderr.String())
	}
	if resp, err := http.Get(baseURL + "/"); err != nil {
		t.Error(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), "data-sandbox-banner") {
			t.Errorf("GET / has no sandbox banner:\n%s", body)
		}
	}

	// The Docker health check finds the same server.
	var hcOut bytes.Buffer
	hcEnv := env(map[string]string{"ADDR": strings.TrimPrefix(baseURL, "http://")})
	if err := run(ctx, []string{"healthcheck"}, hcEnv, &hcOut, io.Discard); err != nil {
		t.Errorf("healthcheck: %v", err)
	}

	out := stdout.String()
	if !strings.Contains(out, "listening on "+baseURL) {
		t.Errorf("stdout lacks the URL %s:\n%s", baseURL, out)
	}
	// The public URL follows the port really bound.
	if !strings.Contains(out, "public URL http://localhost:"+baseURL[strings.LastIndex(baseURL, ":")+1:]) {
		t.Errorf("stdout lacks the derived public URL:\n%s", out)
	}
	if !strings.Contains(out, "PAYMENT_WEBHOOK_SECRET was not set; this run uses ") {
		t.Errorf("stdout lacks the generated secret:\n%s", out)
	}

	cancel() // what SIGTERM does in main
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after cancel, want nil\n%s", err, stderr.String())
		}
		if testing.Verbose() {
			t.Log(stderr.String())
		}
	case <-time.After(shutdownGrace + 5*time.Second):
		t.Fatal("serve did not stop after cancel")
	}

	// SEED_DEMO defaults to true: the empty database got the demo.
	store := openStore(t, path)
	if n, err := store.CountShows(context.Background()); err != nil || n < 50 {
		t.Errorf("CountShows after serve = %d, %v; want the demo catalog", n, err)
	}
	shows, err := store.UpcomingShows(context.Background(), time.Now(), 1000, booking.Rules{TTL: 15 * time.Minute}.At(time.Now()))
	if err != nil || len(shows) == 0 {
		t.Errorf("UpcomingShows = %d shows, %v", len(shows), err)
	}
}

func TestServeWithoutDemo(t *testing.T) {
	testkit.NeedAssets(t)
	dbURL, path := tempDatabaseURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	m := &Main{Stdout: io.Discard, Stderr: io.Discard, Ready: func(string) { cancel() }}
	args := []string{"--addr", "127.0.0.1:0", "--seed-demo=false", "--database-url", dbURL}
	if err := m.Run(ctx, args, env(nil)); err != nil {
		t.Fatal(err)
	}
	if n, err := openStore(t, path).CountShows(context.Background()); err != nil || n != 0 {
		t.Errorf("CountShows = %d, %v; want 0 with --seed-demo=false", n, err)
	}
}

// TestBinaryExitsZeroOnSIGTERM builds the real binary, starts it, and sends
// it SIGTERM as Docker or Kubernetes would.
func TestBinaryExitsZeroOnSIGTERM(t *testing.T) {
	bin := testkit.BuildBinary(t) // skips in -short mode and on Windows
	dbURL, _ := tempDatabaseURL(t)
	p := serve(t, bin, "ADDR=127.0.0.1:0", "DATABASE_URL="+dbURL, "SEED_DEMO=false", "LOG_FORMAT=json")
	resp, err := http.Get(p.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(shutdownGrace + 5*time.Second); err != nil {
		t.Fatalf("after SIGTERM: %v, want exit status 0\n%s", err, p.Log())
	}
	if !strings.Contains(p.Log(), `"msg":"stopped"`) {
		t.Errorf("log lacks the clean stop:\n%s", p.Log())
	}
}
