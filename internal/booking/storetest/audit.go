package storetest

import (
	"context"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

var auditTests = []test{
	{"Consistent", testAuditConsistent},
}

// testAuditConsistent: after bookings, a failed payment, a release, a live
// hold and a lapsed hold whose seat was taken over, the audit read from
// the store finds nothing wrong and adds up.
func testAuditConsistent(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 6, time.Now().Add(48*time.Hour))
	m := at(0)
	book(t, s, show.ID, "ana", m, "A1", "A2")
	h := hold(t, s, show.ID, "ben", m, "A3")
	p, _ := pay(t, s, h, m)
	settle(t, s, event(p, booking.EventPaymentFailed), "", m)
	released := hold(t, s, show.ID, "cai", m, "B1", "B2")
	if _, err := s.ReleaseHold(ctx, released.ID, "cai"); err != nil {
		t.Fatal(err)
	}
	hold(t, s, show.ID, "dee", m, "B3", "B4")              // live
	hold(t, s, show.ID, "eve", at(-time.Hour), "B5", "B6") // lapsed
	later := at(time.Minute)
	hold(t, s, show.ID, "fay", later, "B6") // takes over one of eve's

	a, err := booking.LoadAudit(ctx, s, show.ID)
	if err != nil {
		t.Fatalf("LoadAudit: %v", err)
	}
	bad, n := booking.CheckAudit(a, later)
	if len(bad) != 0 {
		t.Errorf("violations: %q", bad)
	}
	want := booking.AuditCounts{Seats: 12, Available: 6, Locked: 4, Booked: 2, Confirmed: 1, PaidPayments: 1}
	if n != want {
		t.Errorf("counts %+v, want %+v", n, want)
	}
	// The film report's read of the show is in the audit: ana's two seats.
	if a.Report == nil || a.Report.Sums.Admissions != 2 || a.Report.Sums.Gross != 2*classicPrice {
		t.Errorf("the audit's film report of the show = %+v; want 2 admissions, gross %d", a.Report, 2*classicPrice)
	}
	// And the sales report's: ana's booking, sold at m.
	if len(a.Sales) != 1 || !a.Sales[0].ConfirmedAt.Equal(m.Now) || a.Sales[0].Amount != 2*classicPrice {
		t.Errorf("the audit's sales report of the show = %+v; want ana's booking, confirmed at %v", a.Sales, m.Now)
	}
}
