package web_test

// BenchmarkHoldRoute measures POST /shows/{id}/holds end to end: an HTTP
// client with a session cookie and CSRF token, the real middleware chain
// (sessions in SQLite, CSRF, metrics), the hold rate limiter in SQLite, the
// hold transaction and the 303.
//
//	go test -run '^$' -bench HoldRoute -benchtime 5000x ./internal/web/
//
// Sub-benchmarks:
//   - held: every hold succeeds (the session alternates between two seat
//     blocks, each hold replacing the previous one), HOLD_RATE off;
//   - held-allow: as held, with single gaps allowed, as
//     ../shared/bench/sidebyside.sh runs it;
//   - held+limit: the same with the SQLite rate limiter counting every hold
//     (a limit so high that it never refuses);
//   - conflict: every hold is refused (409, htmx fragment): the seats are
//     held by another session.
//   - held-parallel: as held, from GOMAXPROCS×4 sessions at once.
//
// docs/PERFORMANCE.md has the numbers.

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

type benchRoute struct {
	srv  *httptest.Server
	show string
}

func newBenchRoute(b *testing.B, holdRate int) *benchRoute {
	return newBenchRouteWith(b, holdRate, booking.DefaultPolicy)
}

func newBenchRouteWith(b *testing.B, holdRate int, policy booking.Policy) *benchRoute {
	b.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "db.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	limiter, err := sqlite.NewRateLimiter(ctx, store)
	if err != nil {
		b.Fatal(err)
	}
	ss := catalog.Synthetic(1, 20, 25, time.Now().Add(24*time.Hour))[0]
	if err := booking.CreateShowStep(ctx, store, time.Now, ss.Show, ss.Seats); err != nil {
		b.Fatal(err)
	}
	svc := booking.NewService(store, nil, policy)
	srv := httptest.NewServer(web.New(svc, web.Options{
		HoldRate: holdRate,
		Sessions: store.Sessions(),
		Limiter:  limiter,
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}).Handler())
	b.Cleanup(srv.Close)
	return &benchRoute{srv: srv, show: ss.Show.ID}
}

// benchVisitor is one browser session: its cookie and CSRF token, and the
// seat blocks it holds in turn.
type benchVisitor struct {
	client *http.Client
	csrf   string
	blocks [][]string
}

func (r *benchRoute) visitor(b *testing.B, blocks ...[]string) *benchVisitor {
	b.Helper()
	jar, _ := cookiejar.New(nil)
	v := &benchVisitor{client: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, blocks: blocks}
	res, err := v.client.Get(r.srv.URL + "/shows/" + r.show)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		b.Fatal(err)
	}
	v.csrf, _ = doc.Find(`meta[name="csrf-token"]`).Attr("content")
	if v.csrf == "" {
		b.Fatal("no csrf token")
	}
	return v
}

func (v *benchVisitor) hold(b *testing.B, r *benchRoute, i int, want int, htmx bool) time.Duration {
	form := url.Values{"_csrf": {v.csrf}, "seat": v.blocks[i%len(v.blocks)]}
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/shows/"+r.show+"/holds", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	start := time.Now()
	res, err := v.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(start)
	if res.StatusCode != want {
		b.Fatalf("hold %d: status %d, want %d", i, res.StatusCode, want)
	}
	return d
}

// block is the k-th block of 4 adjacent seats of the synthetic 20×25 map.
func block(k int) []string {
	row, col := k/5, k%5*4+1
	ids := make([]string, 4)
	for j := range ids {
		ids[j] = catalog.RowLabel(row) + itoa(col+j)
	}
	return ids
}

// measureCPU is testkit.Measure that also reports the process's CPU time
// per op (cpu-ns/op, client and server together), which other processes
// on the machine move less than the wall clock.
func measureCPU(b *testing.B, op func(i int) time.Duration) {
	b.Helper()
	before := processCPU(b)
	testkit.Measure(b, op)
	b.ReportMetric(float64((processCPU(b)-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkHoldRoute(b *testing.B) {
	seq := func(holdRate, want int, htmx bool, setup func(*testing.B, *benchRoute) *benchVisitor) func(*testing.B) {
		return func(b *testing.B) {
			r := newBenchRoute(b, holdRate)
			v := setup(b, r)
			measureCPU(b, func(i int) time.Duration { return v.hold(b, r, i, want, htmx) })
		}
	}
	own := func(b *testing.B, r *benchRoute) *benchVisitor { return r.visitor(b, block(0), block(1)) }
	b.Run("held", seq(0, http.StatusSeeOther, false, own))
	// As ../shared/bench/sidebyside.sh runs the binary (SEAT_GAPS=allow,
	// HOLD_SEATS_PER_ADDRESS=0), like for like with its bare loop.
	b.Run("held-allow", func(b *testing.B) {
		p := booking.DefaultPolicy
		p.AllowGaps = true
		r := newBenchRouteWith(b, 0, p)
		v := own(b, r)
		measureCPU(b, func(i int) time.Duration { return v.hold(b, r, i, http.StatusSeeOther, false) })
	})
	b.Run("held+limit", seq(1<<30, http.StatusSeeOther, false, own))
	b.Run("conflict", seq(0, http.StatusConflict, true, func(b *testing.B, r *benchRoute) *benchVisitor {
		other := r.visitor(b, block(0))
		other.hold(b, r, 0, http.StatusSeeOther, false)
		return r.visitor(b, block(0))
	}))
	b.Run("held-parallel", func(b *testing.B) {
		r := newBenchRoute(b, 0)
		const perProc = 4
		b.SetParallelism(perProc)
		visitors := make([]*benchVisitor, perProc*runtime.GOMAXPROCS(0))
		for k := range visitors {
			visitors[k] = r.visitor(b, block(2*k), block(2*k+1))
		}
		var next atomic.Int64
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			v := visitors[next.Add(1)-1]
			for i := 0; pb.Next(); i++ {
				v.hold(b, r, i, http.StatusSeeOther, false)
			}
		})
	})
}
