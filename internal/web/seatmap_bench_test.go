package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkSeatMapPage serves GET /shows/{id}, the 500-seat map page, to a
// cookie-less visitor through the whole handler (middleware, store read,
// render), without a network in between, in English and in Hindi
// (Accept-Language): the grid comes from the grid cache, kept per
// language.
//
//	go test -run '^$' -bench SeatMapPage -cpuprofile cpu.out ./internal/web/
func BenchmarkSeatMapPage(b *testing.B) {
	r := newBenchRoute(b, 0)
	h := r.srv.Config.Handler
	for _, lang := range []string{"en", "hi"} {
		for _, enc := range []string{"", "gzip"} {
			name := "raw"
			if enc != "" {
				name = enc
			}
			b.Run(lang+"/"+name, func(b *testing.B) {
				benchGet(b, h, "/shows/"+r.show, lang, enc)
			})
		}
	}
}

// BenchmarkSeatMapDrawn serves the map page with a best-available
// suggestion (?best=2), which draws every seat again at each request (no
// grid cache): what naming 500 seats (accessible names, states, prices)
// costs, in English and in Hindi.
func BenchmarkSeatMapDrawn(b *testing.B) {
	r := newBenchRoute(b, 0)
	h := r.srv.Config.Handler
	for _, lang := range []string{"en", "hi"} {
		b.Run(lang, func(b *testing.B) {
			benchGet(b, h, "/shows/"+r.show+"?best=2", lang, "")
		})
	}
}

// benchGet serves path to a cookie-less visitor in lang (Accept-Language)
// and reports the body's size.
func benchGet(b *testing.B, h http.Handler, path, lang, enc string) {
	b.ReportAllocs()
	var size int
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.RemoteAddr = "127.0.0.1:1234"
		req.Header.Set("Accept-Language", lang)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		size = rec.Body.Len()
	}
	b.ReportMetric(float64(size), "bytes")
}
