package web_test

import (
	"net/http"
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
// and styles left out.
func pageWords(t *testing.T, res response) string {
	t.Helper()
	d := res.doc(t)
	d.Find("script, style, template").Remove()
	return strings.Join(strings.Fields(d.Find("body").Text()), " ")
}

// TestAdminPagesSayDurationsInWords (issue 29, item 8): durations on the
// admin's pages read "15 minutes", "1 hour 30 minutes", never "15m0s", and
// no page names a setting such as REFUND_AUTOMATICALLY.
func TestAdminPagesSayDurationsInWords(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	a.book("C1")
	id := admin.createOnSale(onSaleForm(60, "1h30m", testShowID))

	for _, c := range []struct{ path, want string }{
		{"/admin/shows/" + testShowID, "holds last 15 minutes"},
		{"/admin/onsales/" + id, "1 hour 30 minutes"},
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
	for _, path := range []string{"/admin", "/admin/catalog", "/admin/onsales", "/admin/refunds", "/admin/theatres/new"} {
		res := admin.get(path)
		wantStatus(t, res, http.StatusOK)
		text := pageWords(t, res)
		if m := goDuration.FindString(text); m != "" {
			t.Errorf("%s prints the duration %q as Go does", path, m)
		}
		if m := settingName.FindString(text); m != "" {
			t.Errorf("%s names the setting %s", path, m)
		}
	}
}
