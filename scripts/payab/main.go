// Command payab is the load of scripts/pay-ab.sh: against one or more
// running boxoffice servers at once, N fresh visitors each get a show's
// seat map (the visitor cookie and CSRF token), hold 2 seats, get the
// checkout and press Pay, each step as a batch of its own: every visitor's
// map, then every hold, then every checkout, then every Pay. Each server's
// CPU (utime+stime from /proc/PID/stat) is read before and after each of
// its batches, so the figure for Pay is the Pay requests' alone; the
// servers run the same batch at the same time, so a noisy machine's noise
// falls on all of them.
//
// Usage: payab [-n N] NAME URL PID SHOWS_FILE [NAME URL PID SHOWS_FILE]…
// (SHOWS_FILE: the show ids boxoffice seed printed, one a line, with 500
// seats or more each and enough of them for N holds of 2 seats.)
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// clkTck is the kernel's USER_HZ, the unit of /proc/PID/stat's times: 100
// on every Linux this runs on.
const clkTck = 100

type server struct {
	name, base string
	pid        int
	shows      []string
	transport  *http.Transport
	visitors   []*visitor
	cpu        map[string]int // ticks by batch
	wall       map[string]time.Duration
}

type visitor struct {
	client          *http.Client
	show, csrf      string
	seats           []string
	hold            string // the hold's path, /holds/{id}
	pay             url.Values
	payAnswer, done string
}

func main() {
	n := flag.Int("n", 300, "visitors, each one hold of 2 seats and one Pay")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || len(args)%4 != 0 {
		fmt.Fprintln(os.Stderr, "usage: payab [-n N] NAME URL PID SHOWS_FILE [NAME URL PID SHOWS_FILE]…")
		os.Exit(2)
	}
	var ss []*server
	for i := 0; i < len(args); i += 4 {
		pid, err := strconv.Atoi(args[i+2])
		if err != nil {
			fail(fmt.Errorf("pid %q: %w", args[i+2], err))
		}
		shows, err := lines(args[i+3])
		if err != nil {
			fail(err)
		}
		ss = append(ss, &server{name: args[i], base: strings.TrimRight(args[i+1], "/"), pid: pid, shows: shows,
			transport: &http.Transport{MaxIdleConnsPerHost: 4}, cpu: map[string]int{}, wall: map[string]time.Duration{}})
	}
	batches := []struct {
		name string
		step func(*server, int, *visitor) error
	}{
		{"map", (*server).getMap},
		{"hold", (*server).postHold},
		{"checkout", (*server).getCheckout},
		{"pay", (*server).postPay},
	}
	for _, s := range ss {
		s.visitors = make([]*visitor, *n)
	}
	for _, b := range batches {
		var wg sync.WaitGroup
		errs := make([]error, len(ss))
		for k, s := range ss {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c0, err := s.ticks()
				if err != nil {
					errs[k] = err
					return
				}
				t0 := time.Now()
				for i := range s.visitors {
					if err := b.step(s, i, s.visitors[i]); err != nil {
						errs[k] = fmt.Errorf("%s: visitor %d, %s: %w", s.name, i, b.name, err)
						return
					}
				}
				s.wall[b.name] = time.Since(t0)
				c1, err := s.ticks()
				s.cpu[b.name] = c1 - c0
				errs[k] = err
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			fail(err)
		}
	}
	for _, s := range ss {
		us := func(batch string) float64 { return float64(s.cpu[batch]) * 1e6 / clkTck / float64(*n) }
		ms := func(batch string) float64 { return s.wall[batch].Seconds() * 1e3 / float64(*n) }
		fmt.Printf("%s: %d Pays, %.0fµs server CPU a Pay (wall %.1f ms) | %d holds, %.0fµs a hold (wall %.1f ms) | map %.0fµs, checkout %.0fµs\n",
			s.name, *n, us("pay"), ms("pay"), *n, us("hold"), ms("hold"), us("map"), us("checkout"))
	}
}

// getMap starts visitor i: a fresh cookie jar, the seat map of its show,
// its CSRF token and its 2 seats (the i-th pair of the show's seats in map
// order, so that visitors never ask for the same seat).
func (s *server) getMap(i int, _ *visitor) error {
	jar, _ := cookiejar.New(nil)
	v := &visitor{client: &http.Client{Jar: jar, Transport: s.transport, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	s.visitors[i] = v
	doc, err := v.get(s.base + "/shows/" + s.showOf(i, v))
	if err != nil {
		return err
	}
	v.csrf = doc.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
	if v.csrf == "" {
		return errors.New("no csrf-token on the seat map")
	}
	var all []string
	doc.Find("#seatmap [data-seat-id]").Each(func(_ int, st *goquery.Selection) {
		all = append(all, st.AttrOr("data-seat-id", ""))
	})
	k := s.slot(i)
	if 2*k+2 > len(all) {
		return fmt.Errorf("show %s has %d seats, too few", v.show, len(all))
	}
	v.seats = all[2*k : 2*k+2]
	return nil
}

// showOf and slot spread the visitors over the shows, 250 to a show.
func (s *server) showOf(i int, v *visitor) string {
	v.show = s.shows[(i/250)%len(s.shows)]
	return v.show
}

func (s *server) slot(i int) int { return i % 250 }

func (s *server) postHold(_ int, v *visitor) error {
	code, loc, err := v.post(s.base+"/shows/"+v.show+"/holds", url.Values{"_csrf": {v.csrf}, "seat": v.seats})
	if err != nil {
		return err
	}
	if code != http.StatusSeeOther || !strings.Contains(loc, "/holds/") {
		return fmt.Errorf("hold of %v answered %d %s", v.seats, code, loc)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return err
	}
	v.hold = u.Path
	return nil
}

// getCheckout reads the Pay form as a browser submits it: its own fields,
// the fields bound to it by form="pay-form" (each seat's ticket type, as
// selected), and an email address.
func (s *server) getCheckout(i int, v *visitor) error {
	doc, err := v.get(s.base + v.hold)
	if err != nil {
		return err
	}
	form := doc.Find(`form[action$="/pay"]`).First()
	if form.Length() == 0 {
		return errors.New("no Pay form on the checkout")
	}
	v.pay = url.Values{}
	fields := form.Find("input[name], select[name]")
	if id := form.AttrOr("id", ""); id != "" {
		fields = fields.AddSelection(doc.Find(`[form="` + id + `"][name]`))
	}
	fields.Each(func(_ int, f *goquery.Selection) {
		name := f.AttrOr("name", "")
		switch {
		case goquery.NodeName(f) == "select":
			opt := f.Find("option[selected]").First()
			if opt.Length() == 0 {
				opt = f.Find("option").First()
			}
			v.pay.Set(name, opt.AttrOr("value", ""))
		case name == "email":
			v.pay.Set(name, fmt.Sprintf("visitor%d@example.com", i))
		default:
			v.pay.Set(name, f.AttrOr("value", ""))
		}
	})
	if v.pay.Get("_csrf") == "" || v.pay.Get("email") == "" {
		return fmt.Errorf("Pay form without _csrf or email: %v", v.pay)
	}
	return nil
}

func (s *server) postPay(_ int, v *visitor) error {
	code, loc, err := v.post(s.base+v.hold+"/pay", v.pay)
	if err != nil {
		return err
	}
	if code != http.StatusSeeOther || !strings.Contains(loc, "/sandbox/checkout/") {
		return fmt.Errorf("Pay answered %d %s", code, loc)
	}
	return nil
}

func (v *visitor) get(target string) (*goquery.Document, error) {
	res, err := v.client.Get(target)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d", target, res.StatusCode)
	}
	return goquery.NewDocumentFromReader(res.Body)
}

func (v *visitor) post(target string, form url.Values) (int, string, error) {
	res, err := v.client.PostForm(target, form)
	if err != nil {
		return 0, "", err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location"), err
}

// ticks is the server's user+system CPU in clock ticks.
func (s *server) ticks() (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from its ")".
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	ut, err1 := strconv.Atoi(f[11]) // field 14
	st, err2 := strconv.Atoi(f[12]) // field 15
	return ut + st, errors.Join(err1, err2)
}

func lines(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no show ids", file)
	}
	return out, sc.Err()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "payab:", err)
	os.Exit(1)
}
