package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/pages"
)

// homeListLimit caps the listing's one read of the shows on sale; a cinema
// chain's week fits well within it.
const homeListLimit = 300

// cityCookie remembers the listing's city without a session: set by
// ?city=, cleared by ?city= empty or "all".
const cityCookie = "city"

// cityCookieLife is how long the city is remembered.
const cityCookieLife = 365 * 24 * time.Hour

// handleHome is the listing: GET /, ?city= and ?date=YYYY-MM-DD (SPEC §20
// "listing"). Whatever the city and date, it reads the store once.
func (s *Server) handleHome(c echo.Context) error {
	ask, err := s.listingAsk(c)
	if err != nil {
		return err
	}
	shows, err := s.svc.UpcomingShows(c.Request().Context(), homeListLimit)
	if err != nil {
		return errorf("web: upcoming shows: %w", err)
	}
	loc := localizer(c)
	m := s.homeModel(loc, shows, s.svc.Now(), ask)
	if ask.SetCity && m.City != "" {
		// Only a city with shows is remembered: a mistyped one is not.
		c.SetCookie(s.cityCookie(url.QueryEscape(m.City), int(cityCookieLife/time.Second)))
	}
	m.Page = s.page(c, loc.T("home.title"))
	if m.City != "" {
		m.Page.Title = loc.F("home.title_city", "City", m.City)
	}
	return s.render(c, http.StatusOK, pages.Home(m))
}

// listingAsk reads the city (?city=, which clears the city cookie when
// empty or "all" and is remembered once found, else the cookie) and the date (?date=) of a listing request. A
// date that is not YYYY-MM-DD is a 400 that says so.
func (s *Server) listingAsk(c echo.Context) (listingAsk, error) {
	var ask listingAsk
	loc := localizer(c)
	if d := c.QueryParam("date"); d != "" {
		day, err := time.Parse(time.DateOnly, d)
		if err != nil {
			return ask, &badRequestError{loc.F("home.bad_date", "Value", booking.Truncate(d, 20))}
		}
		ask.Date = day
	}
	q := c.QueryParams()
	if _, given := q["city"]; given {
		city := strings.TrimSpace(q.Get("city"))
		if city == "" || strings.EqualFold(city, "all") {
			c.SetCookie(s.cityCookie("", -1))
			return ask, nil
		}
		if !utf8.ValidString(city) || len(city) > 100 {
			return ask, &badRequestError{loc.T("home.bad_city")}
		}
		ask.City, ask.SetCity = city, true
		return ask, nil
	}
	if ck, err := c.Cookie(cityCookie); err == nil {
		if city, err := url.QueryUnescape(ck.Value); err == nil && utf8.ValidString(city) {
			ask.City = strings.TrimSpace(city)
		}
	}
	return ask, nil
}

// cityCookie is the city cookie with value (query-escaped: a city may be
// written in any script), for maxAge seconds (-1 deletes it).
func (s *Server) cityCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name: cityCookie, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: secureCookies(s.opts.PublicURL), MaxAge: maxAge,
	}
}
