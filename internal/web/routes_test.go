package web_test

import (
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/web"
)

func TestHEADOnEveryGETRoute(t *testing.T) {
	a := newApp(t)
	c := a.client()
	css := regexp.MustCompile(`href="(/static/[^"]+/css/app\.css)"`).FindStringSubmatch(c.get("/").body)
	if css == nil {
		t.Fatal("home page links no hashed stylesheet")
	}
	tests := []struct {
		path string
		want int
	}{
		{"/", http.StatusOK},
		{"/healthz", http.StatusOK},
		{"/readyz", http.StatusOK},
		{"/metrics", http.StatusOK},
		{"/shows/" + testShowID, http.StatusOK},
		{"/shows/" + testShowID + "/seats", http.StatusOK},
		{css[1], http.StatusOK},
		{"/nope", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := a.client().do(http.MethodHead, tt.path, nil, nil)
			wantStatus(t, res, tt.want)
			if res.body != "" {
				t.Errorf("HEAD has a body: %q", res.body)
			}
			if res.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
		})
	}
	// A HEAD of a page makes no session: there is no body to carry a token.
	if sc := a.client().do(http.MethodHead, "/", nil, nil).Header.Get("Set-Cookie"); sc != "" {
		t.Errorf("HEAD / sets a cookie: %s", sc)
	}
}

func TestMetricsMethodLabelIsBounded(t *testing.T) {
	a := newApp(t)
	c := a.client()
	c.do("FOOBAR1", "/", nil, nil)
	c.do("FOOBAR2", "/healthz", nil, nil)
	m := c.get("/metrics").body
	if strings.Contains(m, "FOOBAR") {
		t.Error("metrics have a label for an unknown method")
	}
	if !strings.Contains(m, `method="OTHER"`) {
		t.Error(`metrics lack method="OTHER"`)
	}
}

// panickySessions is a session store that panics, to prove a panic in the
// session middleware is recovered.
type panickySessions struct{}

func (panickySessions) Find(string) ([]byte, bool, error)      { panic("session store exploded") }
func (panickySessions) Commit(string, []byte, time.Time) error { panic("session store exploded") }
func (panickySessions) Delete(string) error                    { panic("session store exploded") }

func TestPanicInMiddlewareIsA500(t *testing.T) {
	a := newApp(t, func(o *web.Options) { o.Sessions = panickySessions{} })
	c := a.client()
	res := c.get("/", "Cookie", "boxoffice_session=x")
	wantStatus(t, res, http.StatusInternalServerError)
	if res.Header.Get("X-Request-Id") == "" || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("500 lacks the security headers: %v", res.Header)
	}
}

// The CSRF token and the seats count only in the body (or the token in its
// header): tokens in URLs leak into logs, and a link must not choose seats.
func TestFormValuesOnlyFromTheBody(t *testing.T) {
	a := newApp(t)
	c := a.client()
	tok := c.csrf()
	holds := "/shows/" + testShowID + "/holds"
	wantStatus(t, c.post(holds+"?_csrf="+url.QueryEscape(tok), url.Values{"seat": {"A1"}}), http.StatusForbidden)
	wantStatus(t, c.post(holds+"?seat=A1", url.Values{"_csrf": {tok}}), http.StatusUnprocessableEntity)
	wantStatus(t, c.post(holds+"?seat=A1", url.Values{"seat": {"A2"}}, "X-CSRF-Token", tok), http.StatusSeeOther)
	if st := seatStates(c.get("/shows/" + testShowID + "/seats").doc(t)); st["A1"] != "available" || st["A2"] != "mine" {
		t.Errorf("A1 %q, A2 %q: want available, mine", st["A1"], st["A2"])
	}
	// A multipart body is a body too.
	var body strings.Builder
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("_csrf", tok)
	_ = mw.WriteField("seat", "B1")
	_ = mw.Close()
	wantStatus(t, c.do(http.MethodPost, holds, strings.NewReader(body.String()),
		headers("Content-Type", mw.FormDataContentType())), http.StatusSeeOther)
}
