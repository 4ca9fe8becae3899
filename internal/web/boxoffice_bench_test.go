package web_test

// BenchmarkCounterSale measures a sale at the box office end to end, as
// staff make it: POST /admin/boxoffice/holds (4 seats, 303) and POST
// /admin/boxoffice/holds/{id}/sell (cash, 303): two requests through the
// real middleware chain (sessions in SQLite, CSRF) and two store steps on
// a 500-seat show. Each sale is refunded at the counter afterwards, outside
// the measure, so that the seats sell again. cpu-ns/op is the process's
// CPU (client and server) of the two requests.
//
//	go test -run '^$' -bench CounterSale -benchtime 300x ./internal/web/

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

func BenchmarkCounterSale(b *testing.B) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "db.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	ss := catalog.Synthetic(1, 20, 25, time.Now().Add(24*time.Hour))[0]
	if err := booking.CreateShowStep(ctx, store, time.Now, ss.Show, ss.Seats); err != nil {
		b.Fatal(err)
	}
	if _, err := booking.NewAdmins(store, nil, bcrypt.MinCost).Ensure(ctx, adminEmail, adminPassword, booking.RoleStaff); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(web.New(booking.NewService(store, nil, booking.DefaultPolicy), web.Options{
		Sessions: store.Sessions(), AdminPasswordCost: bcrypt.MinCost,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}).Handler())
	b.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	csrf := func(path string) string {
		res, err := c.Get(srv.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		d, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			b.Fatal(err)
		}
		tok, _ := d.Find(`meta[name="csrf-token"]`).Attr("content")
		return tok
	}
	post := func(path string, form url.Values) string {
		res, err := c.Post(srv.URL+path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			msg := ""
			if d, err := goquery.NewDocumentFromReader(strings.NewReader(string(body))); err == nil {
				msg = strings.TrimSpace(d.Find(".notice-error, [role=alert]").First().Text())
			}
			b.Fatalf("POST %s %v: status %d: %s", path, form["seat"], res.StatusCode, msg)
		}
		return res.Header.Get("Location")
	}
	post("/admin/login", url.Values{"_csrf": {csrf("/admin/login")}, "email": {adminEmail}, "password": {adminPassword}})
	tok := csrf("/admin/boxoffice?show=" + ss.Show.ID)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := processCPU(b)
		hold := post("/admin/boxoffice/holds", url.Values{"_csrf": {tok}, "show": {ss.Show.ID}, "seat": counterBlock(i % 120)})
		sale := post(hold+"/sell", url.Values{"_csrf": {tok}, "method": {"cash"}})
		cpu += processCPU(b) - before
		b.StopTimer()
		id, _, _ := strings.Cut(strings.TrimPrefix(sale, "/admin/boxoffice/bookings/"), "?")
		post("/admin/boxoffice/bookings/"+id+"/refund", url.Values{"_csrf": {tok}})
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// counterBlock is the k-th of the 120 blocks of 4 adjacent seats of the
// synthetic show's 20 rows of 25.
func counterBlock(k int) []string {
	row, col := k/6, k%6*4+1
	ids := make([]string, 4)
	for j := range ids {
		ids[j] = catalog.RowLabel(row) + itoa(col+j)
	}
	return ids
}
