package web_test

import (
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/web"
)

// TestHEADOnEveryGETRoute: every GET route of the server, as Echo lists
// them, answers HEAD with the status and Content-Type of its GET and no
// body. Each route is asked with real ids (of a seeded show, catalog,
// hold, payment and booking) by a client that may see it: its owner, a
// signed-in admin, or a stranger for the public pages.
func TestHEADOnEveryGETRoute(t *testing.T) {
	a := newAdminApp(t)
	ctx := t.Context()
	a.catalog()
	admins, err := a.store.ListAdmins(ctx)
	if err != nil || len(admins) != 1 {
		t.Fatalf("ListAdmins: %v, %v", admins, err)
	}

	stranger := a.client()
	guest := a.client() // a moviegoer with a hold of their own
	hold := guest.mustHold("B1")
	payer := a.client() // and one paying: a session's new hold is 409 while it pays
	p := payer.mustPay("A1", "A2")
	admin := a.client()
	admin.mustLogin()
	printed := a.book("E6") // confirmed: its tickets print
	counterHold := func(seat string) string {
		res := admin.post("/admin/boxoffice/holds", url.Values{"_csrf": {admin.adminCSRF()}, "show": {testShowID}, "seat": {seat}})
		wantStatus(t, res, http.StatusSeeOther)
		return res.Header.Get("Location")
	}
	res := admin.post(counterHold("C2")+"/sell", url.Values{"_csrf": {admin.adminCSRF()}, "method": {"cash"}})
	wantStatus(t, res, http.StatusSeeOther)
	counterSale, _, _ := strings.Cut(res.Header.Get("Location"), "?")
	counterHoldPath := counterHold("C1")
	a.secondShow("show2")
	onSale, err := a.svc.CreateOnSale(ctx, booking.OnSaleRequest{Name: "Later", OpensAt: testStart.Add(48 * time.Hour), Rate: 10, ShowIDs: []string{"show2"}})
	if err != nil {
		t.Fatal(err)
	}
	css := regexp.MustCompile(`href="(/static/[^"]+/css/app\.css)"`).FindStringSubmatch(stranger.get("/").body)
	if css == nil {
		t.Fatal("home page links no hashed stylesheet")
	}

	// What to ask of each GET route, by its path in the route table, and
	// the status its GET answers.
	type ask struct {
		c    *client
		path string
		want int
	}
	asks := map[string]ask{
		"/":                                    {stranger, "/", http.StatusOK},
		"/shows/:showID":                       {stranger, "/shows/" + testShowID, http.StatusOK},
		"/shows/:showID/seats":                 {stranger, "/shows/" + testShowID + "/seats", http.StatusOK},
		"/holds/:holdID":                       {guest, hold, http.StatusOK},
		"/holds/:holdID/total":                 {guest, hold + "/total", http.StatusOK},
		"/bookings/find":                       {stranger, "/bookings/find", http.StatusOK},
		"/bookings/:bookingID":                 {payer, "/bookings/" + p.BookingID, http.StatusOK},
		"/bookings/:bookingID/status":          {payer, "/bookings/" + p.BookingID + "/status", http.StatusOK},
		"/bookings/:bookingID/print":           {admin, "/bookings/" + printed.ID + "/print", http.StatusOK},
		"/admin/login":                         {stranger, "/admin/login", http.StatusOK},
		"/admin":                               {admin, "/admin", http.StatusOK},
		"/admin/shows/:showID":                 {admin, "/admin/shows/" + testShowID, http.StatusOK},
		"/admin/shows/:showID/bookings.csv":    {admin, "/admin/shows/" + testShowID + "/bookings.csv", http.StatusOK},
		"/admin/payments/:paymentID":           {admin, "/admin/payments/" + p.ID, http.StatusOK},
		"/admin/refunds":                       {admin, "/admin/refunds", http.StatusOK},
		"/admin/checkin":                       {admin, "/admin/checkin", http.StatusOK},
		"/admin/boxoffice":                     {admin, "/admin/boxoffice", http.StatusOK},
		"/admin/boxoffice/holds/:holdID":       {admin, counterHoldPath, http.StatusOK},
		"/admin/boxoffice/bookings/:bookingID": {admin, counterSale, http.StatusOK},
		"/admin/boxoffice/cashup":              {admin, "/admin/boxoffice/cashup", http.StatusOK},
		"/admin/accounts":                      {admin, "/admin/accounts", http.StatusOK},
		"/admin/accounts/:id":                  {admin, "/admin/accounts/" + admins[0].ID, http.StatusOK},
		"/admin/catalog":                       {admin, "/admin/catalog", http.StatusOK},
		"/admin/theatres/new":                  {admin, "/admin/theatres/new", http.StatusOK},
		"/admin/theatres/:id":                  {admin, "/admin/theatres/th1", http.StatusOK},
		"/admin/theatres/:id/screens/new":      {admin, "/admin/theatres/th1/screens/new", http.StatusOK},
		"/admin/screens/:id":                   {admin, "/admin/screens/sc1", http.StatusOK},
		"/admin/theatres/:id/types":            {admin, "/admin/theatres/th1/types", http.StatusOK},
		"/admin/theatres/:id/types/:typeID":    {admin, "/admin/theatres/th1/types/adult", http.StatusOK},
		"/admin/theatres/:id/cards":            {admin, "/admin/theatres/th1/cards", http.StatusOK},
		"/admin/theatres/:id/cards/new":        {admin, "/admin/theatres/th1/cards/new", http.StatusOK},
		"/admin/cards/:cardID":                 {admin, "/admin/cards/card1", http.StatusOK},
		"/admin/screens/:id/layout.txt":        {admin, "/admin/screens/sc1/layout.txt", http.StatusOK},
		"/admin/movies/new":                    {admin, "/admin/movies/new", http.StatusOK},
		"/admin/movies/:id":                    {admin, "/admin/movies/mv1", http.StatusOK},
		"/admin/shows/new":                     {admin, "/admin/shows/new", http.StatusOK},
		"/admin/onsales":                       {admin, "/admin/onsales", http.StatusOK},
		"/admin/reports/films":                 {admin, "/admin/reports/films", http.StatusOK},
		"/admin/reports/sales":                 {admin, "/admin/reports/sales?from=2026-03-01&to=2026-03-14", http.StatusOK},
		"/admin/onsales/:id":                   {admin, "/admin/onsales/" + onSale.ID, http.StatusOK},
		"/queue/:onsaleID":                     {stranger, "/queue/" + onSale.ID, http.StatusOK},
		"/queue/:onsaleID/status":              {stranger, "/queue/" + onSale.ID + "/status", http.StatusOK},
		payment.CheckoutPath + ":paymentID":    {payer, payment.CheckoutPath + p.ID, http.StatusOK},
		"/static/:version/*":                   {stranger, css[1], http.StatusOK},
		"/healthz":                             {stranger, "/healthz", http.StatusOK},
		"/readyz":                              {stranger, "/readyz", http.StatusOK},
		"/metrics":                             {stranger, "/metrics", http.StatusOK},
		"/debug/pprof/:name":                   {stranger, "/debug/pprof/heap", http.StatusOK},
	}

	e, ok := a.srv.Config.Handler.(*echo.Echo)
	if !ok {
		t.Fatalf("the server's handler is a %T, not the *echo.Echo whose routes this test lists", a.srv.Config.Handler)
	}
	routes := e.Routes()
	slices.SortFunc(routes, func(x, y *echo.Route) int { return strings.Compare(x.Path, y.Path) })
	seen := map[string]bool{}
	for _, r := range routes {
		if r.Method != http.MethodGet {
			continue
		}
		seen[r.Path] = true
		q, ok := asks[r.Path]
		if !ok {
			t.Errorf("GET %s: no request for it in this test's table; add one with real ids", r.Path)
			continue
		}
		t.Run(r.Path, func(t *testing.T) {
			get := q.c.get(q.path)
			wantStatus(t, get, q.want)
			head := q.c.do(http.MethodHead, q.path, nil, nil)
			wantStatus(t, head, get.StatusCode)
			if head.body != "" {
				t.Errorf("HEAD has a body: %q", head.body)
			}
			if g, h := get.Header.Get("Content-Type"), head.Header.Get("Content-Type"); g != h {
				t.Errorf("HEAD Content-Type %q, GET %q", h, g)
			}
			if head.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
		})
	}
	for path := range asks {
		if !seen[path] {
			t.Errorf("the table asks for GET %s, which is no route", path)
		}
	}

	// An unknown path is 404 to HEAD as to GET.
	wantStatus(t, stranger.do(http.MethodHead, "/nope", nil, nil), http.StatusNotFound)
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
