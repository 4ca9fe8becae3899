package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// langCookie remembers a visitor's ?lang= choice for a year, without a
// session (SPEC §19).
const langCookie = "lang"

// language puts the request's Localizer in its context: ?lang= (which also
// sets the lang cookie), else the cookie, else Accept-Language, else
// DEFAULT_LANG. The answer varies with the cookie and Accept-Language,
// except a static asset's, which is the same in every language.
func (s *Server) language(next echo.HandlerFunc) echo.HandlerFunc {
	def := s.opts.DefaultLang
	if def == "" {
		def = i18n.English
	}
	return func(c echo.Context) error {
		r := c.Request()
		var cookie string
		if ck, err := r.Cookie(langCookie); err == nil {
			cookie = ck.Value
		}
		lang, fromQuery := i18n.Choose(r.URL.Query().Get("lang"), cookie, r.Header.Get("Accept-Language"), def)
		if !translated(r.URL.Path) {
			// Admin pages stay English (SPEC §19); a choice made here is
			// not remembered either.
			lang, fromQuery = i18n.English, false
		}
		if fromQuery && cookie != string(lang) {
			c.SetCookie(&http.Cookie{
				Name: langCookie, Value: string(lang), Path: "/", MaxAge: 365 * 24 * 60 * 60,
				SameSite: http.SameSiteLaxMode, Secure: s.secure(), HttpOnly: true,
			})
		}
		if !strings.HasPrefix(r.URL.Path, "/static/") {
			// Assets are the same in every language: a cache keeps one.
			addVary(c.Response().Header(), "Cookie")
			addVary(c.Response().Header(), "Accept-Language")
		}
		c.SetRequest(r.WithContext(i18n.WithLocalizer(r.Context(), i18n.For(lang))))
		return next(c)
	}
}

// translated reports whether the page at path speaks the visitor's
// language: every page but the admin's, whose sign-in, door and box office
// are translated too.
func translated(path string) bool {
	if path != "/admin" && !strings.HasPrefix(path, "/admin/") {
		return true
	}
	for _, p := range []string{"/admin/login", doorPath, "/admin/boxoffice"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// localizer is the request's Localizer.
func localizer(c echo.Context) *i18n.Localizer { return i18n.From(c.Request().Context()) }

// langLinks is the language switcher of the page at u: a link per
// language to the same page with ?lang=.
func langLinks(u *url.URL, current i18n.Lang) []model.LangLink {
	links := make([]model.LangLink, len(i18n.Langs))
	for i, l := range i18n.Langs {
		q := u.Query()
		q.Set("lang", string(l))
		links[i] = model.LangLink{Code: string(l), Name: l.Native(), URL: u.Path + "?" + q.Encode(), Current: l == current}
	}
	return links
}
