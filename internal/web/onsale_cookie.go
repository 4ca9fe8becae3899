package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
)

// The on-sale's cookies (SPEC §18), both signed with the pass key that
// every process shares (Service.PassKey), so that any process checks them
// without reading the database:
//
//   - the join cookie, boxoffice_join_<onsale>, is the visitor's place:
//     "j1|<onsale>|<join id>|<joined at, Unix ns>|<1: before T0>|<position, -1
//     until known>|<pass until, Unix ns, 0 before the pass>";
//   - the pass, boxoffice_pass_<onsale>: "p1|<onsale>|<position>|<expires,
//     Unix ns>".
//
// Each value is the fields in base64url, a dot, and the HMAC-SHA256 of
// the fields under the key, in base64url.

const (
	joinCookiePrefix = "boxoffice_join_"
	passCookiePrefix = "boxoffice_pass_"
)

// joinTicket is what the join cookie says.
type joinTicket struct {
	OnSaleID  string
	JoinID    string
	JoinedAt  time.Time
	Before    bool
	Position  int // -1 until known
	PassUntil time.Time
}

// entry is the queue entry the ticket stands for, with its rank under o's
// key.
func (j joinTicket) entry(o booking.OnSale) booking.QueueEntry {
	return booking.QueueEntry{OnSaleID: j.OnSaleID, JoinID: j.JoinID, JoinedAt: j.JoinedAt, Before: j.Before,
		Rank: booking.QueueRank(o.Key, j.JoinID)}
}

// pass is what the pass cookie says.
type pass struct {
	OnSaleID  string
	Position  int
	ExpiresAt time.Time
}

func signValue(key []byte, fields ...string) string {
	payload := strings.Join(fields, "|")
	m := hmac.New(sha256.New, key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// openValue is the fields of a value signValue made under key, or false
// when it was not (forged, cut, another key).
func openValue(key []byte, value string) ([]string, bool) {
	p, sig, ok := strings.Cut(value, ".")
	if !ok || len(value) > 1024 {
		return nil, false
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	if !hmac.Equal(mac, m.Sum(nil)) {
		return nil, false
	}
	return strings.Split(string(payload), "|"), true
}

func nsString(t time.Time) string {
	if t.IsZero() {
		return "0"
	}
	return strconv.FormatInt(t.UnixNano(), 10)
}

func nsTime(s string) (time.Time, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	if n == 0 {
		return time.Time{}, true
	}
	return time.Unix(0, n).UTC(), true
}

func (s *Server) encodeJoin(j joinTicket) string {
	before := "0"
	if j.Before {
		before = "1"
	}
	return signValue(s.passKey, "j1", j.OnSaleID, j.JoinID, nsString(j.JoinedAt), before, strconv.Itoa(j.Position), nsString(j.PassUntil))
}

// joinTicket is the visitor's place in on-sale id's queue, if its cookie
// is there and good.
func (s *Server) joinTicket(c echo.Context, id string) (joinTicket, bool) {
	ck, err := c.Cookie(joinCookiePrefix + id)
	if err != nil {
		return joinTicket{}, false
	}
	f, ok := openValue(s.passKey, ck.Value)
	if !ok || len(f) != 7 || f[0] != "j1" || f[1] != id || !looksLikeID(f[2]) {
		return joinTicket{}, false
	}
	joined, ok1 := nsTime(f[3])
	until, ok2 := nsTime(f[6])
	pos, err := strconv.Atoi(f[5])
	if !ok1 || !ok2 || err != nil || pos < -1 {
		return joinTicket{}, false
	}
	return joinTicket{OnSaleID: f[1], JoinID: f[2], JoinedAt: joined, Before: f[4] == "1", Position: pos, PassUntil: until}, true
}

// setJoinTicket sets the join cookie for o, kept a day past o's closing.
func (s *Server) setJoinTicket(c echo.Context, o booking.OnSale, j joinTicket, now time.Time) {
	c.SetCookie(s.onSaleCookie(joinCookiePrefix+o.ID, s.encodeJoin(j), o.ClosesAt.Add(24*time.Hour).Sub(now)))
}

// validPass is the visitor's pass for on-sale id, if it has one that is
// good at now: signed with the pass key, for this on-sale, unexpired.
func (s *Server) validPass(c echo.Context, id string, now time.Time) (pass, bool) {
	ck, err := c.Cookie(passCookiePrefix + id)
	if err != nil {
		return pass{}, false
	}
	f, ok := openValue(s.passKey, ck.Value)
	if !ok || len(f) != 4 || f[0] != "p1" || f[1] != id {
		return pass{}, false
	}
	pos, err := strconv.Atoi(f[2])
	exp, ok := nsTime(f[3])
	if err != nil || !ok || !now.Before(exp) {
		return pass{}, false
	}
	return pass{OnSaleID: id, Position: pos, ExpiresAt: exp}, true
}

// setPass sets p's cookie, until it expires.
func (s *Server) setPass(c echo.Context, p pass, now time.Time) {
	value := signValue(s.passKey, "p1", p.OnSaleID, strconv.Itoa(p.Position), nsString(p.ExpiresAt))
	c.SetCookie(s.onSaleCookie(passCookiePrefix+p.OnSaleID, value, p.ExpiresAt.Sub(now)))
}

func (s *Server) onSaleCookie(name, value string, life time.Duration) *http.Cookie {
	return &http.Cookie{
		Name: name, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: secureCookies(s.opts.PublicURL), MaxAge: max(int(life/time.Second), 1),
	}
}
