package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// What the crowd reads from the pages, as a browser and the page's htmx
// would: the seat map page's poll (views/partials/seatmap.templ: #seatmap
// with hx-get, hx-trigger "every 5s, …" and data-etag, which
// static/js/requests.js sends back as If-None-Match), the fragment's new
// data-etag, and the waiting room's page (SPEC §18, §20 "queue").

// mapPoll is how the seat map page refreshes its map.
type mapPoll struct {
	csrf  string        // meta csrf-token: requests.js sends it as X-CSRF-Token
	url   string        // #seatmap's hx-get
	every time.Duration // from hx-trigger "every 5s"
	etag  string        // #seatmap's data-etag
}

// scanTags calls visit with each start tag of r's HTML, its name and
// attributes (values unescaped), until visit returns false or the document
// ends. It builds no tree: a crowd reads thousands of pages a second.
func scanTags(r io.Reader, visit func(name string, attrs map[string]string) bool) error {
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return err
			}
			return nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			attrs := map[string]string{}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			if !visit(string(name), attrs) {
				return nil
			}
		}
	}
}

var everyRE = regexp.MustCompile(`(?:^|[\s,])every\s+(\d+(?:\.\d+)?(?:ms|s|m))`)

// readMapPage reads a seat map page up to its map: the CSRF token and how
// the map polls. A page whose map does not poll is an error.
func readMapPage(r io.Reader) (mapPoll, error) {
	var p mapPoll
	found := false
	err := scanTags(r, func(name string, a map[string]string) bool {
		if name == "meta" && a["name"] == "csrf-token" {
			p.csrf = a["content"]
		}
		if a["id"] == "seatmap" {
			found = true
			p.url, p.etag = a["hx-get"], a["data-etag"]
			if m := everyRE.FindStringSubmatch(a["hx-trigger"]); m != nil {
				p.every, _ = time.ParseDuration(m[1])
			}
			return false
		}
		return true
	})
	switch {
	case err != nil:
		return p, err
	case !found:
		return p, errors.New("no #seatmap on the page")
	case p.url == "" || p.every <= 0:
		return p, fmt.Errorf("#seatmap does not poll (hx-get %q, no \"every N\" in hx-trigger)", p.url)
	}
	return p, nil
}

// fragmentETag is the data-etag of the map fragment's #seatmap: the first
// start tag of r that has id="seatmap".
func fragmentETag(r io.Reader) (string, error) {
	etag, found := "", false
	err := scanTags(r, func(_ string, a map[string]string) bool {
		if a["id"] == "seatmap" {
			etag, found = a["data-etag"], true
			return false
		}
		return true
	})
	if err == nil && !found {
		err = errors.New("no #seatmap in the fragment")
	}
	return etag, err
}

// Queue states of SPEC §20.
const (
	queueBefore   = "before"
	queueOpen     = "open"
	queueWaiting  = "waiting"
	queueAdmitted = "admitted"
	queueClosed   = "closed"
)

// queueView is what the waiting room's page says (SPEC §20, "queue"):
// data-queue-state, and data-position, data-ahead, data-eta-seconds where
// present (-1 where absent: the position before T0, the wait while paused).
type queueView struct {
	state                string
	position, ahead, eta int
	join, csrf           string // the Join form's action and _csrf (or the page's meta csrf-token)
	next                 string // admitted: the link on to a show
	refresh              string // the URL the page refreshes itself from (its hx-get), "" for itself
}

// readQueuePage reads a queue page; one without data-queue-state, or with
// a state SPEC §20 does not name, is an error.
func readQueuePage(r io.Reader) (queueView, error) {
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		return queueView{}, err
	}
	return queueOf(doc)
}

func queueOf(doc *goquery.Document) (queueView, error) {
	v := queueView{position: -1, ahead: -1, eta: -1}
	el := doc.Find("[data-queue-state]").First()
	if el.Length() == 0 {
		return v, errors.New("no [data-queue-state] on the queue page")
	}
	v.state = strings.TrimSpace(el.AttrOr("data-queue-state", ""))
	switch v.state {
	case queueBefore, queueOpen, queueWaiting, queueAdmitted, queueClosed:
	default:
		return v, fmt.Errorf("data-queue-state %q: want before, open, waiting, admitted or closed", v.state)
	}
	for attr, dst := range map[string]*int{"data-position": &v.position, "data-ahead": &v.ahead, "data-eta-seconds": &v.eta} {
		s, ok := el.Attr(attr)
		if !ok {
			s, ok = doc.Find("[" + attr + "]").First().Attr(attr)
		}
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			return v, fmt.Errorf("%s=%q: want a count from 0", attr, s)
		}
		*dst = n
	}
	doc.Find("form").EachWithBreak(func(_ int, f *goquery.Selection) bool {
		action := f.AttrOr("action", "")
		if !strings.HasSuffix(action, "/join") {
			return true
		}
		v.join = action
		v.csrf = f.Find(`input[name="_csrf"]`).AttrOr("value", "")
		return false
	})
	if v.csrf == "" {
		v.csrf = doc.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
	}
	if v.state == queueAdmitted {
		for _, scope := range []*goquery.Selection{el, doc.Selection} {
			if href, ok := scope.Find(`a[href^="/shows/"]`).First().Attr("href"); ok {
				v.next = href
				break
			}
		}
	}
	if g, ok := doc.Find("[hx-get]").First().Attr("hx-get"); ok && strings.HasPrefix(g, "/queue/") {
		v.refresh = g
	}
	return v, nil
}
