package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// goDuration is a duration as Go prints it (15m0s, 1h30m0s, 90s), and
// settingName a configuration setting's name (REFUND_AUTOMATICALLY): neither
// belongs in what a person reads on a page.
var (
	goDuration  = regexp.MustCompile(`\b\d+(\.\d+)?(h|m|s|ms)(\d+(\.\d+)?(m|s))+\b|\b\d+m0s\b`)
	settingName = regexp.MustCompile(`\b[A-Z]{2,}_[A-Z_]{2,}\b`)
)

// pageWords is the text of a page a person reads: its body's text, scripts
// and styles left out, a space after each element's (so that "15m0s" at
// the end of one is not run into the next's text).
func pageWords(t *testing.T, res response) string {
	t.Helper()
	d := res.doc(t)
	d.Find("script, style, template").Remove()
	d.Find("body *").AppendHtml(" ")
	return strings.Join(strings.Fields(d.Find("body").Text()), " ")
}

// TestAdminPagesSayDurationsInWords (issue 29, item 8): durations on the
// admin's pages read "15 minutes", "1 hour 30 minutes", never "15m0s", and
// no page names a setting such as REFUND_AUTOMATICALLY: every admin page
// that is HTML, each with a record to show (a show with bookings, one of
// them due a refund, a payment, an on-sale, the catalog, a box-office hold
// and sale, a ticket at the door).
func TestAdminPagesSayDurationsInWords(t *testing.T) {
	a := newAdminApp(t)
	a.catalog()
	admin := a.client()
	admin.mustLogin()
	a.book("C1")
	due := a.book("C2")
	a.exec(`UPDATE bookings SET state = 'refund_due', reason = 'show cancelled' WHERE id = ?`, []any{due.ID})
	paying := a.client().mustPay("A1", "A2")
	id := admin.createOnSale(onSaleForm(60, "1h30m", testShowID))
	counterHold := func(seat string) string {
		t.Helper()
		res := admin.post("/admin/boxoffice/holds", url.Values{"_csrf": {admin.adminCSRF()}, "show": {testShowID}, "seat": {seat}})
		wantStatus(t, res, http.StatusSeeOther)
		return res.Header.Get("Location")
	}
	res := admin.post(counterHold("E1")+"/sell", url.Values{"_csrf": {admin.adminCSRF()}, "method": {"cash"}})
	wantStatus(t, res, http.StatusSeeOther)
	counterSale, _, _ := strings.Cut(res.Header.Get("Location"), "?")
	admins, err := a.store.ListAdmins(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct{ path, want string }{
		// What a duration or a setting is shown on.
		{"/admin/shows/" + testShowID, "holds last 15 minutes"},
		{"/admin/onsales/" + id, "1 hour 30 minutes"},
		{"/admin/onsales", "30 minutes before it opens"},
		{"/admin/boxoffice", "within the next 12 hours"},
		{"/admin/catalog", ""},
		{"/admin/theatres/th1", ""},
		{"/admin/refunds", ""},
		{"/admin/boxoffice?show=" + testShowID, ""},
		{counterHold("E2"), ""},
		{counterSale, ""},
		{"/admin/boxoffice/cashup", ""},
		{"/admin/checkin", ""},
		{"/admin/checkin?show=&code=" + due.TicketCode, ""},
		// And every other admin page.
		{"/admin", ""},
		{"/admin?when=all", ""},
		{"/admin/payments/" + paying.ID, ""},
		{"/admin/accounts", ""},
		{"/admin/accounts/" + admins[0].ID, ""},
		{"/admin/theatres/new", ""},
		{"/admin/theatres/th1/screens/new", ""},
		{"/admin/screens/sc1", ""},
		{"/admin/theatres/th1/types", ""},
		{"/admin/theatres/th1/types/adult", ""},
		{"/admin/theatres/th1/cards", ""},
		{"/admin/theatres/th1/cards/new", ""},
		{"/admin/cards/card1", ""},
		{"/admin/movies/new", ""},
		{"/admin/movies/mv1", ""},
		{"/admin/shows/new", ""},
		{"/admin/reports/films", ""},
		{"/admin/reports/sales", ""},
	} {
		res := admin.get(c.path)
		wantStatus(t, res, http.StatusOK)
		text := pageWords(t, res)
		if !strings.Contains(text, c.want) {
			t.Errorf("%s does not say %q", c.path, c.want)
		}
		if m := goDuration.FindString(text); m != "" {
			t.Errorf("%s prints the duration %q as Go does", c.path, m)
		}
		if m := settingName.FindString(text); m != "" {
			t.Errorf("%s names the setting %s", c.path, m)
		}
	}
}
