package web_test

import (
	"net/http"
	"testing"
)

// With the sandbox provider every page, error pages too, says that no real
// money moves; with another provider (none here) no page does.
func TestSandboxBanner(t *testing.T) {
	pages := []struct {
		path   string
		status int
	}{
		{"/", http.StatusOK},
		{"/shows/" + testShowID, http.StatusOK},
		{"/admin/login", http.StatusOK},
		{"/no/such/page", http.StatusNotFound},
	}
	for _, tt := range []struct {
		name   string
		app    *app
		banner bool
	}{
		{"sandbox", newApp(t), true},
		{"no provider", newApp(t, func(o *webOptions) { o.Payments = nil }), false},
	} {
		c := tt.app.client()
		for _, p := range pages {
			res := c.get(p.path)
			wantStatus(t, res, p.status)
			if got := res.doc(t).Find("[data-sandbox-banner]").Length() == 1; got != tt.banner {
				t.Errorf("%s: GET %s has the sandbox banner: %v, want %v", tt.name, p.path, got, tt.banner)
			}
		}
	}
}
