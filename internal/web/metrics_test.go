package web_test

import (
	"net/http"
	"strings"
	"testing"

	"boxoffice/internal/web"
)

// metricsToken is the METRICS_TOKEN of machineApps' first app.
const metricsToken = "0123456789abcdef0123456789abcdef"

// machineApps are an app with METRICS_TOKEN set to metricsToken and one without.
func machineApps(t *testing.T) (withToken, without *app) {
	t.Helper()
	return newApp(t, func(o *web.Options) { o.MetricsToken = metricsToken }), newApp(t)
}

// TestMetricsAccess (SPEC §12): with a token, /metrics needs it as a bearer
// token, from anywhere; without one, it answers clients on this host only,
// by the client address the limits use (the tests' connections come from
// the loopback, which is trusted as a proxy).
func TestMetricsAccess(t *testing.T) {
	withToken, without := machineApps(t)
	tests := []struct {
		name   string
		app    *app
		header []string
		want   int
	}{
		{"metricsToken: right bearer", withToken, []string{"Authorization", "Bearer " + metricsToken}, http.StatusOK},
		{"metricsToken: scheme in any case", withToken, []string{"Authorization", "bearer " + metricsToken}, http.StatusOK},
		{"metricsToken: right bearer from afar", withToken, []string{"Authorization", "Bearer " + metricsToken, "X-Forwarded-For", "198.51.100.7"}, http.StatusOK},
		{"metricsToken: none, even from the loopback", withToken, nil, http.StatusUnauthorized},
		{"metricsToken: wrong", withToken, []string{"Authorization", "Bearer " + metricsToken + "x"}, http.StatusUnauthorized},
		{"metricsToken: a prefix", withToken, []string{"Authorization", "Bearer " + metricsToken[:16]}, http.StatusUnauthorized},
		{"metricsToken: not bearer", withToken, []string{"Authorization", "Basic " + metricsToken}, http.StatusUnauthorized},
		{"no metricsToken: loopback", without, nil, http.StatusOK},
		{"no metricsToken: loopback behind the proxy", without, []string{"X-Forwarded-For", "::1"}, http.StatusOK},
		{"no metricsToken: a client behind the proxy", without, []string{"X-Forwarded-For", "198.51.100.7"}, http.StatusForbidden},
		{"no metricsToken: a bearer is no key", without, []string{"Authorization", "Bearer " + metricsToken, "X-Forwarded-For", "198.51.100.7"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.app.client().get("/metrics", tt.header...)
			wantStatus(t, res, tt.want)
			challenge := res.Header.Get("WWW-Authenticate")
			switch {
			case tt.want == http.StatusOK && !strings.Contains(res.body, "boxoffice_holds_total"):
				t.Error("200 without the metrics")
			case tt.want != http.StatusOK && strings.Contains(res.body, "boxoffice_"):
				t.Error("refused, yet the metrics are in the body")
			case tt.want == http.StatusUnauthorized && !strings.HasPrefix(challenge, "Bearer"):
				t.Errorf("401 with WWW-Authenticate %q, want Bearer", challenge)
			}
		})
	}
}

// TestProfiles: the runtime's profiles are guarded as /metrics is, and
// an unknown profile is 404.
func TestProfiles(t *testing.T) {
	withToken, without := machineApps(t)
	tests := []struct {
		name   string
		app    *app
		path   string
		header []string
		want   int
		body   string
	}{
		{"heap in text from the loopback", without, "/debug/pprof/heap?gc=1&debug=1", nil, http.StatusOK, "# HeapInuse = "},
		{"goroutines", without, "/debug/pprof/goroutine?debug=1", nil, http.StatusOK, "goroutine profile: total"},
		{"a client behind the proxy", without, "/debug/pprof/heap?debug=1", []string{"X-Forwarded-For", "198.51.100.7"}, http.StatusForbidden, ""},
		{"metricsToken: right bearer", withToken, "/debug/pprof/heap?debug=1", []string{"Authorization", "Bearer " + metricsToken}, http.StatusOK, "# HeapInuse = "},
		{"metricsToken: none", withToken, "/debug/pprof/heap?debug=1", nil, http.StatusUnauthorized, ""},
		{"unknown profile", without, "/debug/pprof/nope", nil, http.StatusNotFound, ""},
		// The CPU profile of the next second, gzipped protobuf.
		{"CPU", without, "/debug/pprof/profile?seconds=1", nil, http.StatusOK, "\x1f\x8b"},
		{"CPU from a client behind the proxy", without, "/debug/pprof/profile?seconds=1", []string{"X-Forwarded-For", "198.51.100.7"}, http.StatusForbidden, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.app.client().get(tt.path, tt.header...)
			wantStatus(t, res, tt.want)
			if tt.body != "" && !strings.Contains(res.body, tt.body) {
				t.Errorf("body lacks %q: %.200s", tt.body, res.body)
			}
			if tt.want != http.StatusOK && strings.Contains(res.body, "HeapInuse") {
				t.Error("refused, yet the profile is in the body")
			}
		})
	}
}
