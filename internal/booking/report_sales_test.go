package booking_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestBuildSalesReport: sale days in each theatre's zone, a row per type
// beside the row counting each booking once, refunds on the refund day in
// the sale's rows, money returned without a sale a row of its own, the
// configured provider for payments stored without one, currencies apart,
// days outside the range left out.
func TestBuildSalesReport(t *testing.T) {
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	ny, _ := time.LoadLocation("America/New_York")
	day := func(d int) time.Time { return time.Date(2026, 12, d, 0, 0, 0, 0, time.UTC) }
	at := func(loc *time.Location, d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, loc).UTC() }
	adult := func(seat string, price booking.Money) booking.SeatTicket {
		return booking.SeatTicket{SeatID: seat, Type: "adult", Name: "Adult", Price: price}
	}
	child := func(seat string, price booking.Money) booking.SeatTicket {
		return booking.SeatTicket{SeatID: seat, Type: "child", Name: "Child", Price: price}
	}
	pune := func(id string, ch booking.Channel, method booking.Method, provider string, confirmed, refunded time.Time, tickets ...booking.SeatTicket) booking.BookingSale {
		var amount booking.Money
		for _, tk := range tickets {
			amount += tk.Price
		}
		return booking.BookingSale{BookingID: id, TheatreID: "t1", Theatre: "Pune Talkies", TimeZone: "Asia/Kolkata", Currency: "INR",
			Channel: ch, Method: method, Provider: provider, Amount: amount, Tickets: tickets, ConfirmedAt: confirmed, RefundedAt: refunded}
	}
	sales := []booking.BookingSale{
		// 23:50 in Kolkata on the 1st is 18:20 UTC: the 1st.
		pune("b1", booking.ChannelOnline, "", "", at(kolkata, 1, 23, 50), time.Time{}, adult("A1", 200_00), child("A2", 100_00), child("A3", 100_00)),
		// 00:10 in Kolkata on the 2nd is the 1st in UTC: the 2nd.
		pune("b2", booking.ChannelOnline, "", "stripe", at(kolkata, 2, 0, 10), time.Time{}, adult("B1", 200_00)),
		// Sold on the 2nd for cash, refunded at the counter on the 3rd.
		pune("b3", booking.ChannelBoxOffice, booking.MethodCash, booking.ProviderBoxOffice, at(kolkata, 2, 12, 0), at(kolkata, 3, 9, 0), adult("C1", 200_00), child("C2", 100_00)),
		// A comp on the 2nd.
		pune("b4", booking.ChannelBoxOffice, booking.MethodComp, booking.ProviderBoxOffice, at(kolkata, 2, 13, 0), time.Time{}, adult("C3", 0)),
		// Sold before the range, refunded in it: the refund only.
		pune("b5", booking.ChannelOnline, "", "", at(kolkata, 1, 8, 0).AddDate(0, 0, -5), at(kolkata, 2, 15, 0), child("D1", 100_00)),
		// A late payment refunded: never confirmed.
		pune("b6", booking.ChannelOnline, "", "", time.Time{}, at(kolkata, 3, 10, 0), adult("E1", 200_00)),
		// Refunded after the range: its sale only.
		pune("b7", booking.ChannelOnline, "", "", at(kolkata, 3, 11, 0), at(kolkata, 9, 11, 0), adult("F1", 200_00)),
		// Sold after the range.
		pune("b8", booking.ChannelOnline, "", "", at(kolkata, 4, 0, 0), time.Time{}, adult("G1", 200_00)),
		// Another theatre, in New York, in dollars: 20:00 on the 1st there is the 2nd in UTC.
		{BookingID: "b9", TheatreID: "t2", Theatre: "Empire", TimeZone: "America/New_York", Currency: "USD", Channel: booking.ChannelOnline,
			Amount: 15_00, Tickets: []booking.SeatTicket{{SeatID: "A1", Price: 15_00}}, ConfirmedAt: at(ny, 1, 20, 0)},
	}
	row := func(theatre string, d int, ch booking.Channel, method, currency, typ, name string, f booking.SalesFigures) booking.SalesRow {
		id := "t1"
		if theatre == "Empire" {
			id = "t2"
		}
		return booking.SalesRow{TheatreID: id, Theatre: theatre, Day: day(d), Channel: ch, Method: method, Currency: currency, TicketType: typ, TypeName: name, SalesFigures: f}
	}
	fig := func(bookings, seats int, gross, refunds booking.Money) booking.SalesFigures {
		return booking.SalesFigures{Bookings: bookings, Seats: seats, Gross: gross, Refunds: refunds}
	}
	const on, box, unsold = booking.ChannelOnline, booking.ChannelBoxOffice, booking.ChannelUnsold
	want := booking.SalesReport{From: day(1), To: day(3), Rows: []booking.SalesRow{
		row("Empire", 1, on, "sandbox", "USD", "all", "All types", fig(1, 1, 15_00, 0)),
		row("Empire", 1, on, "sandbox", "USD", "standard", "Standard", fig(1, 1, 15_00, 0)),
		row("Pune Talkies", 1, on, "sandbox", "INR", "all", "All types", fig(1, 3, 400_00, 0)),
		row("Pune Talkies", 1, on, "sandbox", "INR", "adult", "Adult", fig(1, 1, 200_00, 0)),
		row("Pune Talkies", 1, on, "sandbox", "INR", "child", "Child", fig(1, 2, 200_00, 0)),
		row("Pune Talkies", 2, on, "sandbox", "INR", "all", "All types", fig(0, 0, 0, 100_00)),
		row("Pune Talkies", 2, on, "sandbox", "INR", "child", "Child", fig(0, 0, 0, 100_00)),
		row("Pune Talkies", 2, on, "stripe", "INR", "all", "All types", fig(1, 1, 200_00, 0)),
		row("Pune Talkies", 2, on, "stripe", "INR", "adult", "Adult", fig(1, 1, 200_00, 0)),
		row("Pune Talkies", 2, box, "cash", "INR", "all", "All types", fig(1, 2, 300_00, 0)),
		row("Pune Talkies", 2, box, "cash", "INR", "adult", "Adult", fig(1, 1, 200_00, 0)),
		row("Pune Talkies", 2, box, "cash", "INR", "child", "Child", fig(1, 1, 100_00, 0)),
		row("Pune Talkies", 2, box, "comp", "INR", "all", "All types", fig(1, 1, 0, 0)),
		row("Pune Talkies", 2, box, "comp", "INR", "adult", "Adult", fig(1, 1, 0, 0)),
		row("Pune Talkies", 3, on, "sandbox", "INR", "all", "All types", fig(1, 1, 200_00, 0)),
		row("Pune Talkies", 3, on, "sandbox", "INR", "adult", "Adult", fig(1, 1, 200_00, 0)),
		row("Pune Talkies", 3, box, "cash", "INR", "all", "All types", fig(0, 0, 0, 300_00)),
		row("Pune Talkies", 3, box, "cash", "INR", "adult", "Adult", fig(0, 0, 0, 200_00)),
		row("Pune Talkies", 3, box, "cash", "INR", "child", "Child", fig(0, 0, 0, 100_00)),
		row("Pune Talkies", 3, unsold, "sandbox", "INR", "all", "All types", fig(0, 0, 0, 200_00)),
	}}
	got := booking.BuildSalesReport(day(1), day(3), sales, "sandbox", time.UTC)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BuildSalesReport (-want +got):\n%s", diff)
	}
}

// TestParseSalesRange: the last seven days by default, to not before
// from, at most 366 days, dates only.
func TestParseSalesRange(t *testing.T) {
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	d := func(s string) time.Time { v, _ := time.Parse(booking.DateLayout, s); return v }
	for _, c := range []struct {
		from, to         string
		wantFrom, wantTo string
		wantErr          bool
	}{
		{"", "", "2026-11-26", "2026-12-02", false},
		{"", "2026-01-07", "2026-01-01", "2026-01-07", false},
		{"2026-11-30", "", "2026-11-30", "2026-12-02", false},
		{"2026-05-05", "2026-05-05", "2026-05-05", "2026-05-05", false},
		{"2025-01-01", "2025-12-31", "2025-01-01", "2025-12-31", false},
		{"2024-01-01", "2024-12-31", "2024-01-01", "2024-12-31", false}, // a leap year: 366 days
		{"2024-01-01", "2025-01-01", "", "", true},                      // 367 days
		{"2026-05-06", "2026-05-05", "", "", true},
		{"2026-05-06", "tomorrow", "", "", true},
		{"5/6/2026", "", "", "", true},
		{"2026-02-30", "", "", "", true},
	} {
		first, last, err := booking.ParseSalesRange(c.from, c.to, today)
		if c.wantErr {
			if booking.ErrorCode(err) != booking.EINVALID {
				t.Errorf("ParseSalesRange(%q, %q) = %v, %v, %v; want EINVALID", c.from, c.to, first, last, err)
			}
			continue
		}
		if err != nil || !first.Equal(d(c.wantFrom)) || !last.Equal(d(c.wantTo)) {
			t.Errorf("ParseSalesRange(%q, %q) = %v, %v, %v; want %s to %s", c.from, c.to, first, last, err, c.wantFrom, c.wantTo)
		}
	}
}
