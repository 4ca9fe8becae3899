package web_test

import (
	"net/http"
	"strings"
	"testing"

	"boxoffice/internal/i18n"
	"boxoffice/internal/web"
)

// TestLanguageChoice: ?lang= chooses and is remembered in the lang cookie
// without a session; else the cookie, else Accept-Language, else
// DEFAULT_LANG (SPEC §19). Every translated page has <html lang> and a
// switcher with hreflang; admin pages stay English without one.
func TestLanguageChoice(t *testing.T) {
	a := newApp(t, func(o *web.Options) { o.DefaultLang = i18n.Tamil })
	htmlLang := func(res response) string {
		t.Helper()
		return res.doc(t).Find("html").AttrOr("lang", "")
	}

	c := a.client()
	res := c.get("/?lang=hi")
	wantStatus(t, res, http.StatusOK)
	if got := htmlLang(res); got != "hi" {
		t.Fatalf("?lang=hi: <html lang=%q>", got)
	}
	var langSet bool
	for _, ck := range res.Cookies() {
		switch ck.Name {
		case "lang":
			langSet = ck.Value == "hi" && ck.MaxAge > 0 && ck.Path == "/"
		case "session":
			t.Errorf("choosing a language wrote a session cookie")
		}
	}
	if !langSet {
		t.Errorf("?lang=hi set no lasting lang=hi cookie: %v", res.Header.Values("Set-Cookie"))
	}
	if got := htmlLang(c.get("/bookings/find")); got != "hi" {
		t.Errorf("after ?lang=hi the next page is lang=%q; want the cookie's hi", got)
	}
	if got := htmlLang(c.get("/?lang=fr")); got != "hi" {
		t.Errorf("an unsupported ?lang=fr gave lang=%q; want it ignored (hi, the cookie)", got)
	}
	if got := htmlLang(c.get("/", "Accept-Language", "ta")); got != "hi" {
		t.Errorf("the cookie's hi lost to Accept-Language: lang=%q", got)
	}

	fresh := a.client()
	if got := htmlLang(fresh.get("/", "Accept-Language", "ta-IN,ta;q=0.9,en;q=0.8")); got != "ta" {
		t.Errorf("Accept-Language ta: lang=%q", got)
	}
	if got := htmlLang(fresh.get("/", "Accept-Language", "en-GB,en;q=0.9")); got != "en" {
		t.Errorf("Accept-Language en-GB: lang=%q", got)
	}
	if got := htmlLang(fresh.get("/", "Accept-Language", "fr-FR")); got != "ta" {
		t.Errorf("Accept-Language fr with DEFAULT_LANG ta: lang=%q", got)
	}

	d := fresh.get("/?lang=en&city=Mumbai").doc(t)
	links := d.Find(".lang-switch a[hreflang]")
	if links.Length() != 3 {
		t.Fatalf("the switcher has %d links with hreflang; want 3", links.Length())
	}
	for i, want := range []string{"en", "hi", "ta"} {
		l := links.Eq(i)
		href := l.AttrOr("href", "")
		if l.AttrOr("hreflang", "") != want || !strings.Contains(href, "lang="+want) || !strings.Contains(href, "city=Mumbai") {
			t.Errorf("switcher link %d: hreflang=%q href=%q; want %s keeping the page's city", i, l.AttrOr("hreflang", ""), href, want)
		}
	}
	if cur := d.Find(`.lang-switch a[aria-current="true"]`).AttrOr("hreflang", ""); cur != "en" {
		t.Errorf("the switcher marks %q current; want en", cur)
	}

	login := fresh.get("/admin/login?lang=ta")
	if got := htmlLang(login); got != "ta" {
		t.Errorf("the admin sign-in in ta: lang=%q", got)
	}
	if res := fresh.get("/admin?lang=hi"); res.StatusCode == http.StatusOK {
		t.Errorf("/admin answered without signing in")
	}
	if v := strings.Join(res.Header.Values("Vary"), ", "); !strings.Contains(v, "Accept-Language") {
		t.Errorf("Vary: %q; a page chosen by Accept-Language must vary with it", v)
	}
	css := res.doc(t).Find(`link[rel="stylesheet"]`).AttrOr("href", "")
	asset := fresh.get(css, "Accept-Language", "hi")
	wantStatus(t, asset, http.StatusOK)
	if v := strings.Join(asset.Header.Values("Vary"), ", "); strings.Contains(v, "Accept-Language") || strings.Contains(v, "Cookie") {
		t.Errorf("the stylesheet %s varies with %q; an asset is the same in every language", css, v)
	}
}
