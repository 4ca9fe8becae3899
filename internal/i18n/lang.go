package i18n

import (
	"golang.org/x/text/language"
)

var matcher = language.NewMatcher([]language.Tag{language.English, language.Hindi, language.Tamil})

// Choose is the page's language by SPEC §19: ?lang= (query), else the lang
// cookie, else the first supported language of Accept-Language, else def.
// fromQuery says the query chose it, so the caller sets the cookie.
func Choose(query, cookie, acceptLanguage string, def Lang) (l Lang, fromQuery bool) {
	if l, ok := Parse(query); ok {
		return l, true
	}
	if l, ok := Parse(cookie); ok {
		return l, false
	}
	if acceptLanguage != "" {
		if tags, _, err := language.ParseAcceptLanguage(acceptLanguage); err == nil && len(tags) > 0 {
			if _, i, conf := matcher.Match(tags...); conf >= language.High {
				return Langs[i], false
			}
		}
	}
	return def, false
}
