package e2e

import (
	"encoding/csv"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// curl is a plain HTTP client of the real process, as curl with a cookie
// jar would be: it keeps its session's cookie and does not follow
// redirects.
type curl struct {
	t    *testing.T
	s    *server
	http *http.Client
}

func newCurl(t *testing.T, s *server) *curl {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &curl{t: t, s: s, http: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// answer is a response with its body read.
type answer struct {
	status   int
	location string
	header   http.Header
	body     string
}

func (a answer) doc(t *testing.T) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(a.body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (c *curl) do(method, path string, form url.Values) answer {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.s.URL+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	return answer{status: res.StatusCode, location: res.Header.Get("Location"), header: res.Header, body: string(b)}
}

// get is GET path, which must be 200.
func (c *curl) get(path string) *goquery.Document {
	c.t.Helper()
	a := c.do(http.MethodGet, path, nil)
	if a.status != http.StatusOK {
		c.t.Fatalf("GET %s: %d, want 200", path, a.status)
	}
	return a.doc(c.t)
}

// post posts form with the CSRF token of the page at from.
func (c *curl) post(from, path string, form url.Values) answer {
	c.t.Helper()
	tok, _ := c.get(from).Find(`meta[name="csrf-token"]`).Attr("content")
	if tok == "" {
		c.t.Fatalf("no csrf-token on %s", from)
	}
	form.Set("_csrf", tok)
	return c.do(http.MethodPost, path, form)
}

func wantAnswer(t *testing.T, what string, a answer, status int, locPrefix string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("%s: status %d, want %d", what, a.status, status)
	}
	if locPrefix != "" && !strings.HasPrefix(a.location, locPrefix) {
		t.Fatalf("%s: Location %q, want %s…", what, a.location, locPrefix)
	}
}

// TestBoxOfficeHooks runs the box office's hooks of SPEC §20 against the
// real binary over plain HTTP, as curl would: an admin keeps a seat for
// the counter (house), which the web cannot hold; the counter holds it
// with another, refuses a comp without a reason, sells for cash; the sold
// seat cannot be reserved; the print page has a ticket per seat; after the
// online cut-off the web's hold is 410 and the counter still sells; a
// counter refund; and the cash-up's page and CSV add it up.
func TestBoxOfficeHooks(t *testing.T) {
	t.Parallel()
	s := startServer(t, "ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword)
	showID := s.showIDs(t)[2]
	mapPath := "/shows/" + showID
	adminShow := "/admin/shows/" + showID
	counterPage := "/admin/boxoffice?show=" + showID

	web := newCurl(t, s)
	var free []string
	web.get(mapPath).Find(`[data-seat-id][data-state="available"]`).Each(func(_ int, el *goquery.Selection) {
		id, _ := el.Attr("data-seat-id")
		free = append(free, id)
	})
	if len(free) < 6 {
		t.Fatalf("the show's map has %d available seats, want at least 6", len(free))
	}
	house, other, late := free[0], free[1], free[2]

	admin := newCurl(t, s)
	wantAnswer(t, "sign-in", admin.post("/admin/login", "/admin/login", url.Values{"email": {adminEmail}, "password": {adminPassword}}),
		http.StatusSeeOther, "/admin")

	// Reserve: house, 303 to the show's admin page; online it is
	// unavailable and holding it is 409.
	wantAnswer(t, "reserve house", admin.post("/admin", adminShow+"/reserve", url.Values{"reserve": {"house"}, "seat": {house}}),
		http.StatusSeeOther, adminShow)
	if st, _ := web.get(mapPath).Find(`[data-seat-id="` + house + `"]`).Attr("data-state"); st != "unavailable" {
		t.Errorf("the house seat %s is %q online, want unavailable", house, st)
	}
	wantAnswer(t, "online hold of the house seat", web.post(mapPath, mapPath+"/holds", url.Values{"seat": {house}}), http.StatusConflict, "")

	// The counter holds the house seat and another.
	res := admin.post(counterPage, "/admin/boxoffice/holds", url.Values{"show": {showID}, "seat": {house, other}})
	wantAnswer(t, "counter hold", res, http.StatusSeeOther, "/admin/boxoffice/holds/")
	holdPath := res.location

	// Comp without a reason: 422, nothing sold.
	res = admin.post(holdPath, holdPath+"/sell", url.Values{"method": {"comp"}, "reason": {""}})
	wantAnswer(t, "comp without a reason", res, http.StatusUnprocessableEntity, "")
	if rule, _ := res.doc(t).Find("[data-rule]").Attr("data-rule"); rule != "reason" {
		t.Errorf("comp without a reason: data-rule %q, want reason", rule)
	}
	if st, _ := web.get(mapPath).Find(`[data-seat-id="` + other + `"]`).Attr("data-state"); st == "booked" {
		t.Errorf("seat %s booked after a refused comp", other)
	}

	// Cash: 303 to the booking's page, with its hooks.
	sell := func(holdPath string) (page string, amount int64) {
		t.Helper()
		res := admin.post(holdPath, holdPath+"/sell", url.Values{"method": {"cash"}})
		wantAnswer(t, "Sell for cash", res, http.StatusSeeOther, "/admin/boxoffice/bookings/")
		page, _, _ = strings.Cut(res.location, "?")
		id := strings.TrimPrefix(page, "/admin/boxoffice/bookings/")
		b := admin.get(res.location).Find("[data-booking-id]")
		for name, want := range map[string]string{"data-booking-id": id, "data-state": "confirmed", "data-channel": "box_office", "data-method": "cash"} {
			if got, _ := b.Attr(name); got != want {
				t.Errorf("the sale's page: %s = %q, want %q", name, got, want)
			}
		}
		v, _ := b.Attr("data-amount")
		amount, err := strconv.ParseInt(v, 10, 64)
		if err != nil || amount <= 0 {
			t.Errorf("the sale's page: data-amount %q, want an amount", v)
		}
		return page, amount
	}
	first, firstAmount := sell(holdPath)
	firstID := strings.TrimPrefix(first, "/admin/boxoffice/bookings/")
	if st, _ := web.get(mapPath).Find(`[data-seat-id="` + house + `"]`).Attr("data-state"); st != "booked" {
		t.Errorf("the sold house seat %s is %q online, want booked", house, st)
	}

	// Reserving a sold seat: 409 naming it.
	res = admin.post("/admin", adminShow+"/reserve", url.Values{"reserve": {"blocked"}, "seat": {other}})
	wantAnswer(t, "reserve of a sold seat", res, http.StatusConflict, "")
	if res.doc(t).Find(`[data-conflict][data-seat-id="`+other+`"]`).Length() == 0 {
		t.Errorf("reserve of the sold seat %s: no data-conflict on it", other)
	}

	// Print: one ticket per seat.
	var printed []string
	admin.get("/bookings/" + firstID + "/print").Find("[data-ticket]").Each(func(_ int, el *goquery.Selection) {
		id, _ := el.Attr("data-seat-id")
		code, _ := el.Attr("data-ticket-code")
		if code == "" {
			t.Errorf("printed ticket of seat %s has no data-ticket-code", id)
		}
		printed = append(printed, id)
	})
	slices.Sort(printed)
	want := []string{house, other}
	slices.Sort(want)
	if !slices.Equal(printed, want) {
		t.Errorf("the print page has tickets for %v, want one per seat %v", printed, want)
	}

	// The online cut-off at the seats available online: online sales stop,
	// the counter sells on.
	var online int
	web.get(mapPath).Find(`[data-seat-id][data-state="available"]`).Each(func(int, *goquery.Selection) { online++ })
	wantAnswer(t, "cut-off", admin.post("/admin", adminShow+"/cutoff", url.Values{"seats": {strconv.Itoa(online)}}), http.StatusSeeOther, "")
	if on, _ := web.get(mapPath).Find("[data-on-sale]").Attr("data-on-sale"); on != "false" {
		t.Errorf("after the cut-off the map has data-on-sale %q, want false", on)
	}
	wantAnswer(t, "online hold after the cut-off", web.post(mapPath, mapPath+"/holds", url.Values{"seat": {late}}), http.StatusGone, "")
	res = admin.post(counterPage, "/admin/boxoffice/holds", url.Values{"show": {showID}, "seat": {late}})
	wantAnswer(t, "counter hold after the cut-off", res, http.StatusSeeOther, "/admin/boxoffice/holds/")
	_, lateAmount := sell(res.location)

	// Refund at the counter.
	res = admin.post(first, first+"/refund", url.Values{"method": {"cash"}})
	wantAnswer(t, "counter refund", res, http.StatusSeeOther, first)
	if st, _ := admin.get(first).Find("[data-booking-id]").Attr("data-state"); st != "refunded" {
		t.Errorf("after the refund data-state %q, want refunded", st)
	}

	// Cash-up: the admin's row in the show's theatre, today there.
	cells := map[string]int64{"sales": 2, "seats": 3, "cash": firstAmount + lateAmount, "card": 0, "comp": 0,
		"cash_refunds": firstAmount, "card_refunds": 0, "net": lateAmount}
	var theatres []string
	admin.get("/admin/boxoffice/cashup").Find(`select[name="theatre"] option`).Each(func(_ int, el *goquery.Selection) {
		v, _ := el.Attr("value")
		theatres = append(theatres, v)
	})
	var theatre string
	for _, th := range theatres {
		row := admin.get("/admin/boxoffice/cashup?theatre=" + url.QueryEscape(th)).Find(`[data-staff="` + adminEmail + `"]`)
		if row.Length() == 0 {
			continue
		}
		theatre = th
		for col, v := range cells {
			if got, _ := row.Find(`[data-col="` + col + `"]`).Attr("data-value"); got != strconv.FormatInt(v, 10) {
				t.Errorf("cash-up %s = %q, want %d", col, got, v)
			}
		}
	}
	if theatre == "" {
		t.Fatalf("no theatre's cash-up (of %v) has a row of %s", theatres, adminEmail)
	}
	res = admin.do(http.MethodGet, "/admin/boxoffice/cashup?format=csv&theatre="+url.QueryEscape(theatre), nil)
	if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("cash-up CSV: %d %s", res.status, res.header.Get("Content-Type"))
	}
	lines, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil || len(lines) != 2 {
		t.Fatalf("cash-up CSV: %d lines, %v; want a header and the admin's line:\n%s", len(lines), err, res.body)
	}
	for i, col := range lines[0] {
		if v, ok := cells[col]; ok && lines[1][i] != strconv.FormatInt(v, 10) {
			t.Errorf("cash-up CSV %s = %q, want %d", col, lines[1][i], v)
		}
		if col == "staff" && lines[1][i] != adminEmail {
			t.Errorf("cash-up CSV staff %q, want %s", lines[1][i], adminEmail)
		}
	}
}
