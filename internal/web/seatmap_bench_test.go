package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkSeatMapPage serves GET /shows/{id}, the 500-seat map page, to a
// cookie-less visitor through the whole handler (middleware, store read,
// render), without a network in between:
//
//	go test -run '^$' -bench SeatMapPage -cpuprofile cpu.out ./internal/web/
func BenchmarkSeatMapPage(b *testing.B) {
	r := newBenchRoute(b, 0)
	h := r.srv.Config.Handler
	for _, enc := range []string{"", "gzip"} {
		name := "raw"
		if enc != "" {
			name = enc
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, "/shows/"+r.show, nil)
				req.RemoteAddr = "127.0.0.1:1234"
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
		})
	}
}
