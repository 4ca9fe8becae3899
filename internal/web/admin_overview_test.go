package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// overviewRows are the show ids an overview page lists, in its order.
func overviewRows(d *goquery.Document) []string {
	var ids []string
	d.Find("tr[data-show-id]").Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-show-id", "")) })
	return ids
}

// addOverviewShows adds n shows to theatre (its id; name "Theatre "+id)
// in zone, the first at first and then every step, and returns their ids.
func addOverviewShows(t *testing.T, a *app, theatre string, zone *time.Location, first time.Time, step time.Duration, n int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		id := fmt.Sprintf("%s-%03d", theatre, i)
		addListed(t, a, listing{id, "m", theatre, "Pune", zone, first.Add(time.Duration(i) * step).In(zone)})
		ids = append(ids, id)
	}
	return ids
}

// TestAdminOverviewPages (issue 29, item 8): /admin lists today's and
// upcoming shows only, 50 a page, grouped by theatre on each page, with
// rel=next and rel=prev links that keep the filters; past shows are a
// filter of their own (newest first), and so are all shows; a page that
// is not a whole number from 1 is 422.
func TestAdminOverviewPages(t *testing.T) {
	a := newAdminApp(t)
	now := a.clock.Now() // 2026-03-14 12:00 UTC
	ta := addOverviewShows(t, a, "ta", time.UTC, now.Add(2*time.Hour), time.Hour, 60)
	tb := addOverviewShows(t, a, "tb", kolkataZone, now.Add(90*time.Minute), time.Hour, 60)
	earlier := addOverviewShows(t, a, "te", time.UTC, now.Add(-3*time.Hour), 0, 1) // today, started
	past := addOverviewShows(t, a, "tp", time.UTC, now.Add(-50*time.Hour), -time.Hour, 3)
	admin := a.client()
	admin.mustLogin()

	upcoming := append(append(append([]string{}, ta...), tb...), testShowID)
	var seen []string
	next := "/admin"
	for page := 1; next != ""; page++ {
		res := admin.get(next)
		wantStatus(t, res, http.StatusOK)
		d := res.doc(t)
		rows := overviewRows(d)
		if page < 3 && len(rows) != 50 {
			t.Errorf("page %d lists %d shows, want 50", page, len(rows))
		}
		// Grouped by theatre: each group's rows are of its theatre, and a
		// theatre has one group on a page.
		groups := map[string]bool{}
		d.Find("[data-theatre-group]").Each(func(_ int, g *goquery.Selection) {
			th := g.AttrOr("data-theatre-group", "")
			if groups[th] {
				t.Errorf("page %d has two groups of theatre %s", page, th)
			}
			groups[th] = true
			if !strings.Contains(g.Find("h2").Text(), "Theatre "+th) && th != "t1" {
				t.Errorf("page %d: group %s is headed %q", page, th, g.Find("h2").Text())
			}
			g.Find("tr[data-show-id]").Each(func(_ int, r *goquery.Selection) {
				id := r.AttrOr("data-show-id", "")
				if th != "t1" && !strings.HasPrefix(id, th+"-") {
					t.Errorf("page %d: show %s in the group of theatre %s", page, id, th)
				}
			})
		})
		if n := d.Find("[data-theatre-group] tr[data-show-id]").Length(); n != len(rows) {
			t.Errorf("page %d: %d of %d rows are in a theatre's group", page, n, len(rows))
		}
		prev, hasPrev := d.Find(`a[rel="prev"]`).Attr("href")
		if (page > 1) != hasPrev {
			t.Errorf("page %d: rel=prev %q", page, prev)
		}
		next = d.Find(`a[rel="next"]`).AttrOr("href", "")
		seen = append(seen, rows...)
		if page > 5 {
			t.Fatal("more than 5 pages")
		}
	}
	for _, id := range past {
		if slices.Contains(seen, id) {
			t.Errorf("the default overview lists past show %s", id)
		}
	}
	if !slices.Contains(seen, earlier[0]) {
		t.Errorf("the default overview leaves out %s, which started earlier today", earlier[0])
	}
	want := append(upcoming, earlier[0])
	slices.Sort(want)
	got := slices.Clone(seen)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the pages list %d shows (%d distinct), want the %d of today and later once each", len(seen), len(slices.Compact(got)), len(want))
	}

	// The theatre filter pages too, and its links keep it.
	d := admin.get("/admin?theatre=tb").doc(t)
	if rows := overviewRows(d); len(rows) != 50 || rows[0] != "tb-000" {
		t.Errorf("theatre tb, page 1: %d rows from %v", len(rows), rows[:min(1, len(rows))])
	}
	href := d.Find(`a[rel="next"]`).AttrOr("href", "")
	if u, err := url.Parse(href); err != nil || u.Query().Get("theatre") != "tb" || u.Query().Get("page") != "2" {
		t.Fatalf("theatre tb's next page is %q, want theatre=tb&page=2", href)
	}
	if rows := overviewRows(admin.get(href).doc(t)); len(rows) != 10 || rows[9] != "tb-059" {
		t.Errorf("theatre tb, page 2: %d rows %v, want tb-050…tb-059", len(rows), rows)
	}

	// Past shows: a filter, newest first.
	d = admin.get("/admin?when=past").doc(t)
	if rows := overviewRows(d); !slices.Equal(rows, past) {
		t.Errorf("past shows %v, want %v (newest first)", rows, past)
	}
	if d.Find(`select[name="when"] option[value="past"][selected]`).Length() != 1 {
		t.Error("the filter does not show that past shows are chosen")
	}
	if rows := overviewRows(admin.get("/admin?when=all&theatre=tp").doc(t)); !slices.Equal(rows, []string{past[2], past[1], past[0]}) {
		t.Errorf("all shows of tp %v, want the soonest first", rows)
	}

	for _, bad := range []string{"page=0", "page=two", "page=-1", "when=tomorrow"} {
		res := admin.get("/admin?" + bad)
		wantStatus(t, res, http.StatusUnprocessableEntity)
	}
	// Past the last page: none listed, and a way back.
	d = admin.get("/admin?page=9").doc(t)
	if n := len(overviewRows(d)); n != 0 || d.Find(`a[rel="prev"]`).Length() != 1 {
		t.Errorf("page 9 lists %d shows and %d rel=prev links", n, d.Find(`a[rel="prev"]`).Length())
	}
}
