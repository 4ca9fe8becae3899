package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestCSRFTokenMaskedPerResponse (BREACH): no two responses carry the same
// token string, and none carries the token itself, yet every one of them
// is accepted; a tampered one is not.
func TestCSRFTokenMaskedPerResponse(t *testing.T) {
	a := newApp(t)
	c := a.client()
	path := "/shows/" + testShowID
	first, second := c.get(path), c.get(path)
	tokens := func(res response) (meta, field string) {
		d := res.doc(t)
		meta, _ = d.Find(`meta[name="csrf-token"]`).Attr("content")
		field, _ = d.Find(`form input[name="_csrf"]`).Attr("value")
		return meta, field
	}
	meta1, field1 := tokens(first)
	meta2, field2 := tokens(second)
	if meta1 == "" || field1 == "" || meta1 == meta2 || field1 == field2 {
		t.Fatalf("two renders carry tokens %q/%q and %q/%q, want a fresh one in each", meta1, field1, meta2, field2)
	}
	raw := cookieNamed(t, first, "boxoffice_csrf", false).Value
	for name, res := range map[string]response{"first": first, "second": second} {
		if strings.Contains(res.body, raw) {
			t.Errorf("the %s page carries the bare token", name)
		}
	}

	holds := path + "/holds"
	tampered := []byte(meta2)
	tampered[len(tampered)/2] ^= 'A' ^ 'B'
	if tampered[len(tampered)/2] == meta2[len(meta2)/2] {
		t.Fatal("tampering changed nothing")
	}
	tests := []struct {
		name string
		form url.Values
		hdr  []string
		want int
	}{
		{"tampered", url.Values{"_csrf": {string(tampered)}, "seat": {"B1"}}, nil, http.StatusForbidden},
		{"truncated", url.Values{"_csrf": {meta2[:len(meta2)-4]}, "seat": {"B1"}}, nil, http.StatusForbidden},
		{"first page's field", url.Values{"_csrf": {field1}, "seat": {"A1"}}, nil, http.StatusSeeOther},
		{"second page's meta as header", url.Values{"seat": {"A2"}}, []string{"X-CSRF-Token", meta2}, http.StatusSeeOther},
		{"first page's meta, after the session was made", url.Values{"_csrf": {meta1}, "seat": {"A3"}}, nil, http.StatusSeeOther},
		// Never written into a page, so no BREACH risk; what pages from
		// before masking carry.
		{"bare token", url.Values{"_csrf": {raw}, "seat": {"A4"}}, nil, http.StatusSeeOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantStatus(t, c.post(holds, tt.form, tt.hdr...), tt.want)
		})
	}
	// A page rendered from the session (after the hold) is masked too, and
	// accepted.
	meta3, _ := tokens(c.get(path))
	if meta3 == meta1 || meta3 == meta2 || strings.Contains(meta3, raw) {
		t.Errorf("the session's page token %q repeats an earlier one", meta3)
	}
	wantStatus(t, c.post(holds, url.Values{"_csrf": {meta3}, "seat": {"B2"}}), http.StatusSeeOther)

	// Another visitor's token, masked or not, is no good.
	other := a.client()
	other.csrf()
	wantStatus(t, other.post(holds, url.Values{"_csrf": {meta3}, "seat": {"C1"}}), http.StatusForbidden)
	wantStatus(t, other.post(holds, url.Values{"_csrf": {raw}, "seat": {"C1"}}), http.StatusForbidden)
}

// TestCSRFCookieMadeOnce: the cookie a first page sets is kept by the
// next pages, which do not set another; a cookie that is not one of our
// tokens is replaced, and proves nothing.
func TestCSRFCookieMadeOnce(t *testing.T) {
	a := newApp(t)
	c := a.client()
	first := c.get("/")
	cookieNamed(t, first, "boxoffice_csrf", false)
	for _, p := range []string{"/", "/shows/" + testShowID, "/bookings/find"} {
		if sc := c.get(p).Header.Get("Set-Cookie"); sc != "" {
			t.Errorf("GET %s sets a cookie again: %s", p, sc)
		}
	}
	res := c.get("/", "Cookie", "boxoffice_csrf=not-a-token")
	if ck := cookieNamed(t, res, "boxoffice_csrf", false); ck.Value == "not-a-token" {
		t.Error("a malformed CSRF cookie was kept")
	}
	wantStatus(t, a.client().post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {"not-a-token"}, "seat": {"A1"}},
		"Cookie", "boxoffice_csrf=not-a-token"), http.StatusForbidden)
}
