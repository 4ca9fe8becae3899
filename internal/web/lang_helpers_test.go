package web_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
)

// The language tests' two checks (SPEC §19, §20): a page is in its
// language (wantInLang), and its hooks are those of the English page
// (wantSameHooks); wantLikeEnglish makes both on a page in each language.

// translatedLangs are the languages other than English every moviegoer
// page speaks (SPEC §19).
var translatedLangs = []i18n.Lang{i18n.Hindi, i18n.Tamil}

// inLang is a client whose pages are in lang (the lang cookie ?lang= sets).
func (a *app) inLang(lang i18n.Lang) *client {
	c := a.client()
	c.setCookie("lang", string(lang))
	return c
}

// text is s with its white space collapsed.
func text(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }

// wantInLang is res, a page rendered in lang: status want, <html lang>, no
// English interface text (i18ntest.Check), and each of texts, collapsed
// white space aside, in its text. The seat map's grid is not checked here:
// it is the seat map partial's, translated and checked with the
// moviegoer's map (lang_seatmap_test.go).
func wantInLang(t *testing.T, name string, res response, want int, lang i18n.Lang, texts ...string) *goquery.Document {
	t.Helper()
	wantStatus(t, res, want)
	d := res.doc(t)
	if got := d.Find("html").AttrOr("lang", ""); got != string(lang) {
		t.Errorf("%s: <html lang=%q>, want %s", name, got, lang)
	}
	checked := goquery.CloneDocument(d)
	checked.Find(`[role="grid"]`).Remove()
	body, err := checked.Html()
	if err != nil {
		t.Fatal(err)
	}
	i18ntest.Check(t, name, body, lang)
	page := text(d.Selection)
	for _, s := range texts {
		if !strings.Contains(page, strings.Join(strings.Fields(s), " ")) {
			t.Errorf("%s in %s does not say %q", name, lang, s)
		}
	}
	return d
}

// hookSet is the elements sel selects, each read as its attrs.
type hookSet struct {
	sel   string
	attrs []string
}

// hooksOf is the hooks attrs of each element sel selects.
func hooksOf(sel string, attrs ...string) hookSet { return hookSet{sel, attrs} }

// hooks are, in document order, a line for each element of d and each of
// sets selecting it: the set's selector and its attrs' values ("(none)"
// for one the element has not).
func hooks(d *goquery.Selection, sets ...hookSet) []string {
	var out []string
	d.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, set := range sets {
			if !s.Is(set.sel) {
				continue
			}
			v := []string{set.sel + ":"}
			for _, a := range set.attrs {
				val, ok := s.Attr(a)
				if !ok {
					val = "(none)"
				}
				v = append(v, a+"="+val)
			}
			out = append(out, strings.Join(v, " "))
		}
	})
	return out
}

// wantSameHooks fails t unless got, the page in lang, has the hooks sets
// read on en, the English page, and returns them.
func wantSameHooks(t *testing.T, name string, lang i18n.Lang, en, got *goquery.Selection, sets ...hookSet) []string {
	t.Helper()
	want, have := hooks(en, sets...), hooks(got, sets...)
	if !slices.Equal(have, want) {
		t.Errorf("%s in %s: data-* hooks changed with the language:\n en: %q\n got: %q", name, lang, want, have)
	}
	return want
}

// wantLikeEnglish makes both checks on the page get answers in English
// and in each of translatedLangs: status want, in its language with
// says[lang] in it, and with the hooks sets read on the English page,
// which it returns.
func wantLikeEnglish(t *testing.T, name string, get func(i18n.Lang) response, want int, sets []hookSet, says map[i18n.Lang][]string) []string {
	t.Helper()
	en := wantInLang(t, name, get(i18n.English), want, i18n.English)
	for _, lang := range translatedLangs {
		d := wantInLang(t, name, get(lang), want, lang, says[lang]...)
		wantSameHooks(t, name, lang, en.Selection, d.Selection, sets...)
	}
	return hooks(en.Selection, sets...)
}
