package web_test

import (
	"boxoffice/internal/booking"
	"context"
	"strings"
	"testing"
	"time"
)

// TestMayFreeInTheatreZone (SPEC §10): a held seat's "may free at" is in
// the show's theatre's zone, as its start is, whatever the server's zone
// (UTC here): 12:15 UTC is 17:45 in Kolkata. The admin's seat map says
// so too, and an admission's time is the theatre's.
func TestMayFreeInTheatreZone(t *testing.T) {
	a := newAdminApp(t) // Options.Location: UTC
	show, seats := testShow()
	show.ID, show.Theatre.TimeZone = "kolkata", "Asia/Kolkata"
	for i := range seats {
		seats[i].ShowID = show.ID
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.HoldSeats(context.Background(), show.ID, "someone else", []string{"B2"}); err != nil {
		t.Fatal(err)
	}
	d := a.client().get("/shows/" + show.ID).doc(t)
	want := "Row B, seat 2, Classic, ₹180, held · may free at 17:45"
	if got := d.Find(`input[name="seat"][value="B2"]`).AttrOr("aria-label", ""); got != want {
		t.Errorf("held seat B2: %q, want %q (%v in Asia/Kolkata)", got, want, testStart.Add(15*time.Minute))
	}

	admin := a.client()
	admin.mustLogin()
	d = admin.get("/admin/shows/" + show.ID).doc(t)
	if got := d.Find(`[data-seat-id="B2"]`).AttrOr("title", ""); !strings.HasSuffix(got, "until 14 Mar 17:45:00") {
		t.Errorf("admin seat B2: title %q, want held until 14 Mar 17:45:00", got)
	}
	b := a.bookAt(show.ID, "A1")
	if _, err := a.svc.AdmitTicket(context.Background(), b.TicketCode, show.ID, "door@example.com", false); err != nil {
		t.Fatal(err)
	}
	d = admin.get("/admin/shows/" + show.ID).doc(t)
	if got := d.Text(); !strings.Contains(got, "14 Mar 17:30:00 by door@example.com") {
		t.Errorf("the admin show page does not give the admission in the theatre's time (14 Mar 17:30:00)")
	}
}
