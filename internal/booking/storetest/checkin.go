package storetest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var checkinTests = []test{
	{"AdmitOnce", testAdmitOnce},
	{"Refusals", testAdmitRefusals},
	{"NotToday", testAdmitNotToday},
}

// testAdmitOnce: a confirmed ticket is admitted, then answered "already"
// with when, and the booking carries who admitted it.
func testAdmitOnce(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	_, b := book(t, s, show.ID, "o1", at(0), "A1", "A2")

	got, err := s.BookingByTicketCode(ctx, b.TicketCode)
	if err != nil {
		t.Fatalf("BookingByTicketCode: %v", err)
	}
	if diff := cmp.Diff(b, got); diff != "" {
		t.Errorf("BookingByTicketCode (-want +got):\n%s", diff)
	}
	_, err = s.BookingByTicketCode(ctx, "ZZZZ-ZZZZ")
	wantErr(t, "BookingByTicketCode of an unknown code", err, booking.ErrBookingNotFound)
	_, err = s.AdmitTicket(ctx, "ZZZZ-ZZZZ", booking.DoorCheck{Now: later}, "door@example.com")
	wantErr(t, "AdmitTicket of an unknown code", err, booking.ErrBookingNotFound)

	when := later.Add(-10 * time.Minute)
	c, err := s.AdmitTicket(ctx, b.TicketCode, booking.DoorCheck{Show: show.ID, Now: when}, "door@example.com")
	if err != nil {
		t.Fatalf("AdmitTicket: %v", err)
	}
	want := b
	want.AdmittedAt, want.AdmittedBy = when, "door@example.com"
	if c.Result != booking.CheckinAdmitted || c.Show.ID != show.ID {
		t.Errorf("AdmitTicket: result %q, show %q; want admitted to %s", c.Result, c.Show.ID, show.ID)
	}
	if diff := cmp.Diff(want, c.Booking); diff != "" {
		t.Errorf("AdmitTicket's booking (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, getBooking(t, s, b.ID)); diff != "" {
		t.Errorf("stored booking after AdmitTicket (-want +got):\n%s", diff)
	}

	again, err := s.AdmitTicket(ctx, b.TicketCode, booking.DoorCheck{Now: when.Add(time.Minute)}, "other@example.com")
	if err != nil {
		t.Fatalf("AdmitTicket again: %v", err)
	}
	if again.Result != booking.CheckinAlready || !again.Booking.AdmittedAt.Equal(when) || again.Booking.AdmittedBy != "door@example.com" {
		t.Errorf("AdmitTicket again: %q at %v by %q; want already, at %v by door@example.com",
			again.Result, again.Booking.AdmittedAt, again.Booking.AdmittedBy, when)
	}
	if diff := cmp.Diff(want, getBooking(t, s, b.ID)); diff != "" {
		t.Errorf("a second scan changed the booking (-want +got):\n%s", diff)
	}
}

// testAdmitRefusals: a ticket for another show, or of a cancelled show, is
// refused and stays unadmitted.
func testAdmitRefusals(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	other, _ := newShow(t, s, 1, 4, later)
	_, b := book(t, s, show.ID, "o1", at(0), "A1")
	c, err := s.AdmitTicket(ctx, b.TicketCode, booking.DoorCheck{Show: other.ID, Now: later}, "door@example.com")
	if err != nil {
		t.Fatalf("AdmitTicket at another show: %v", err)
	}
	if c.Result != booking.CheckinRefused || c.Reason != booking.RefusedOtherShow || c.Show.ID != show.ID {
		t.Errorf("at another show: %q %q (show %s); want refused other_show naming %s", c.Result, c.Reason, c.Show.ID, show.ID)
	}
	if _, _, err := s.CancelShow(ctx, show.ID, at(time.Hour)); err != nil {
		t.Fatalf("CancelShow: %v", err)
	}
	c, err = s.AdmitTicket(ctx, b.TicketCode, booking.DoorCheck{Show: show.ID, Now: later}, "door@example.com")
	if err != nil {
		t.Fatalf("AdmitTicket of a cancelled show: %v", err)
	}
	if c.Result != booking.CheckinRefused || c.Reason != booking.RefusedCancelled {
		t.Errorf("a cancelled show: %q %q; want refused cancelled", c.Result, c.Reason)
	}
	if got := getBooking(t, s, b.ID); !got.AdmittedAt.IsZero() || got.AdmittedBy != "" {
		t.Errorf("refused tickets were admitted: %v by %q", got.AdmittedAt, got.AdmittedBy)
	}
}

// testAdmitNotToday: without a chosen show, a ticket whose show is not in
// the door's window is refused not_today and stays unadmitted; confirmed,
// it is admitted, at the door's moment.
func testAdmitNotToday(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	_, b := book(t, s, show.ID, "o1", at(0), "A1")
	tooEarly := later.Add(-booking.DoorAhead)
	c, err := s.AdmitTicket(ctx, b.TicketCode, booking.DoorCheck{Now: tooEarly}, "door@example.com")
	if err != nil {
		t.Fatalf("AdmitTicket a day early: %v", err)
	}
	if c.Result != booking.CheckinRefused || c.Reason != booking.RefusedNotToday || c.Show.ID != show.ID {
		t.Errorf("not today: %q %q (show %s); want refused not_today naming %s", c.Result, c.Reason, c.Show.ID, show.ID)
	}
	if got := getBooking(t, s, b.ID); !got.AdmittedAt.IsZero() {
		t.Errorf("a ticket refused not_today was admitted at %v", got.AdmittedAt)
	}
	c, err = s.AdmitTicket(ctx, b.TicketCode, booking.DoorCheck{Now: tooEarly, Confirm: true}, "door@example.com")
	if err != nil {
		t.Fatalf("AdmitTicket confirmed: %v", err)
	}
	if c.Result != booking.CheckinAdmitted {
		t.Errorf("confirmed: %q %q, want admitted", c.Result, c.Reason)
	}
	if got := getBooking(t, s, b.ID); !got.AdmittedAt.Equal(tooEarly) || got.AdmittedBy != "door@example.com" {
		t.Errorf("confirmed admission stored at %v by %q, want %v by door@example.com", got.AdmittedAt, got.AdmittedBy, tooEarly)
	}
}

// testRaceAdmit: many doors scan the same tickets at once; each ticket is
// admitted exactly once and every other scan answers "already".
func testRaceAdmit(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, seats := newShow(t, s, 1, 6, later)
	var codes []string
	for i, seat := range seats {
		_, b := book(t, s, show.ID, "o"+seat.ID, at(time.Duration(i)*time.Second), seat.ID)
		codes = append(codes, b.TicketCode)
	}
	const doors = 8
	results := make([][]booking.CheckinResult, doors)
	concurrently(doors, func(d int) {
		for i := range codes {
			code := codes[(i+d)%len(codes)]
			c, err := s.AdmitTicket(ctx, code, booking.DoorCheck{Show: show.ID, Now: later}, "door")
			if err != nil {
				t.Errorf("door %d, %s: %v", d, code, err)
				return
			}
			results[d] = append(results[d], c.Result)
		}
	})
	admitted := 0
	for _, rs := range results {
		for _, r := range rs {
			switch r {
			case booking.CheckinAdmitted:
				admitted++
			case booking.CheckinAlready:
			default:
				t.Errorf("a scan answered %q", r)
			}
		}
	}
	if admitted != len(codes) {
		t.Errorf("%d admissions of %d tickets scanned by %d doors at once; want each admitted exactly once", admitted, len(codes), doors)
	}
}

// runAdmissions scans every code of job from job.Doors goroutines at once,
// each starting at a different code.
func runAdmissions(ctx context.Context, s store, job workerJob) []outcome {
	results := make([][]outcome, job.Doors)
	concurrently(job.Doors, func(d int) {
		for i := range job.Codes {
			code := job.Codes[(i+d+job.Process)%len(job.Codes)]
			o := outcome{Code: code, Start: time.Now().UnixNano()}
			c, err := s.AdmitTicket(ctx, code, booking.DoorCheck{Show: job.ShowID, Now: job.Now}, fmt.Sprintf("door %d.%d", job.Process, d))
			o.End, o.Result = time.Now().UnixNano(), c.Result
			if err != nil {
				o.Err = err.Error()
			}
			results[d] = append(results[d], o)
		}
	})
	var all []outcome
	for _, rs := range results {
		all = append(all, rs...)
	}
	return all
}

// testProcessAdmitRace: two processes, several doors in each, scan the same
// tickets at once; each ticket is admitted exactly once, and its booking
// names the one door that admitted it.
func testProcessAdmitRace(t *testing.T, h Harness) {
	dsn, shared := h.Shared(t)
	if shared == nil {
		t.Fatal("Harness.Shared returned a nil store")
	}
	s := store{shared}
	closeWithTest(t, s)
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("os.Executable: %v", err)
	}
	show, seats := newShow(t, s, 2, 10, later)
	codes := map[string]string{} // code → booking id
	var list []string
	for i, seat := range seats {
		_, b := book(t, s, show.ID, "o"+seat.ID, at(time.Duration(i)*time.Second), seat.ID)
		codes[b.TicketCode] = b.ID
		list = append(list, b.TicketCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	const processes, doors = 2, 4
	workers := make([]*worker, processes)
	for p := range workers {
		workers[p] = startWorker(ctx, t, exe, workerJob{Process: p, DSN: dsn, ShowID: show.ID, Now: later, Codes: list, Doors: doors})
	}
	for _, w := range workers {
		w.waitReady(t)
	}
	for _, w := range workers {
		w.start(t)
	}
	admittedBy := map[string][]string{}
	var all []outcome
	for p, w := range workers {
		outcomes := w.wait(t)
		all = append(all, outcomes...)
		for _, o := range outcomes {
			if o.Err != "" {
				t.Errorf("process %d, %s: %s", p, o.Code, o.Err)
			}
			switch o.Result {
			case booking.CheckinAdmitted:
				admittedBy[o.Code] = append(admittedBy[o.Code], fmt.Sprint(p))
			case booking.CheckinAlready:
			default:
				t.Errorf("process %d, %s: %q", p, o.Code, o.Result)
			}
		}
	}
	checkOverlap(t, all)
	for code, id := range codes {
		if n := len(admittedBy[code]); n != 1 {
			t.Errorf("ticket %s admitted %d times (by processes %v); want once", code, n, admittedBy[code])
		}
		b := getBooking(t, s, id)
		if b.AdmittedAt.IsZero() || !strings.HasPrefix(b.AdmittedBy, "door "+strings.Join(admittedBy[code], "")) {
			t.Errorf("booking of %s: admitted at %v by %q; want by process %v", code, b.AdmittedAt, b.AdmittedBy, admittedBy[code])
		}
	}
}
