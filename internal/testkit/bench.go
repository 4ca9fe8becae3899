package testkit

import (
	"slices"
	"testing"
	"time"
)

// Measure runs op b.N times, each returning how long its timed part took,
// and reports the p50 and p99 of those beside the benchmark's mean.
func Measure(b *testing.B, op func(i int) time.Duration) {
	b.Helper()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, op(i))
	}
	b.StopTimer()
	ReportLatencies(b, lat)
}

// ReportLatencies reports the p50 and p99 of lat, which it sorts.
func ReportLatencies(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
