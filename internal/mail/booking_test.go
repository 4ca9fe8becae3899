package mail

import (
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// TestAboutListsTypes: a booking's mail lists each seat with its ticket
// type, the type's note and its price (SPEC §15, "Afterwards"); a booking
// stored without types lists its seats as Standard.
func TestAboutListsTypes(t *testing.T) {
	sh := booking.Show{Movie: booking.Movie{Title: "The Long Night"}, Theatre: booking.Theatre{Name: "Bioscope", TimeZone: "Asia/Kolkata"},
		StartsAt: time.Date(2026, 12, 1, 12, 30, 0, 0, time.UTC)}
	b := booking.Booking{ID: "bk_1", SeatIDs: []string{"A1", "A2"}, Amount: 27000, Currency: "INR", State: booking.BookingConfirmed, TicketCode: "7K3M-Q9PA",
		Tickets: []booking.SeatTicket{
			{SeatID: "A1", Category: "Classic", Type: "adult", Name: "Adult", Price: 18000},
			{SeatID: "A2", Category: "Classic", Type: "child", Name: "Child", Note: "under 12", Price: 9000},
		}}
	m := booking.Mail{ID: "m1", Kind: booking.MailConfirmed, To: "asha@example.com"}
	c, err := Compose(About(m, b, sh, testLink))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A1 Adult ₹180", "A2 Child (under 12) ₹90"} {
		if !strings.Contains(c.Text, want) || !strings.Contains(c.HTML, want) {
			t.Errorf("the mail does not list %q:\n%s", want, c.Text)
		}
	}
	b.Tickets = nil
	c, err = Compose(About(m, b, sh, testLink))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Text, "A1 Standard ₹135") {
		t.Errorf("an old booking's mail does not list its seats as Standard:\n%s", c.Text)
	}
}
