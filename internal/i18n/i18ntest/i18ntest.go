// Package i18ntest finds English interface text in a page that should be in
// another language (SPEC §19): the check every translated page's test runs.
package i18ntest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"boxoffice/internal/i18n"
)

// English lists the English catalog's messages found in page, a page
// rendered in lang: whole text nodes and aria-label, title, placeholder and
// alt values equal to an English message, or containing a templated one's
// longest literal part. Messages that read the same in lang as in English
// (the site's name, "IST") are not English text there.
func English(page string, lang i18n.Lang) []string {
	plain, parts := englishOnly(lang)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return []string{"unparsable page: " + err.Error()}
	}
	var found []string
	check := func(where, s string) {
		s = strings.Join(strings.Fields(s), " ")
		if s == "" {
			return
		}
		if id, ok := plain[s]; ok {
			found = append(found, where+" "+strconvQuote(s)+" ("+id+")")
			return
		}
		for part, id := range parts {
			if strings.Contains(s, part) {
				found = append(found, where+" "+strconvQuote(s)+" ("+id+")")
				return
			}
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if p := n.Parent; p == nil || (p.Data != "script" && p.Data != "style") {
				check("text", n.Data)
			}
		case html.ElementNode:
			for _, a := range n.Attr {
				switch a.Key {
				case "aria-label", "title", "placeholder", "alt":
					check(a.Key, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	slices.Sort(found)
	return slices.Compact(found)
}

// Check fails t for each English message in page, rendered in lang.
func Check(t testing.TB, name, page string, lang i18n.Lang) {
	t.Helper()
	for _, s := range English(page, lang) {
		t.Errorf("%s in %s shows English: %s", name, lang, s)
	}
}

var arg = regexp.MustCompile(`\{\{[^}]*\}\}`)

// englishOnly is the English catalog's text that lang writes otherwise: the
// plain messages by text, and each templated message's longest literal
// part, when long enough to mean something on its own.
func englishOnly(lang i18n.Lang) (plain, parts map[string]string) {
	c := i18n.MustLoad()
	plain, parts = map[string]string{}, map[string]string{}
	for _, id := range c.IDs() {
		en, _ := c.Text(i18n.English, id)
		tr, _ := c.Text(lang, id)
		if en == tr {
			continue
		}
		if !strings.Contains(en, "{{") {
			plain[strings.Join(strings.Fields(en), " ")] = id
			continue
		}
		longest := ""
		for _, p := range arg.Split(en, -1) {
			p = strings.TrimSpace(p)
			if len(p) > len(longest) {
				longest = p
			}
		}
		if len(longest) >= 8 && !strings.Contains(tr, longest) {
			parts[longest] = id
		}
	}
	return plain, parts
}

func strconvQuote(s string) string { return `"` + s + `"` }
