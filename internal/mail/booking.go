package mail

import (
	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

// About is what outbox mail m about booking b of show sh says, link being
// b's booking link.
func About(m booking.Mail, b booking.Booking, sh booking.Show, link string) Message {
	reason := booking.ReasonText(i18n.For(i18n.English), b.Reason)
	return Message{
		ID: m.ID, Kind: Kind(m.Kind), To: m.To, BookingID: b.ID,
		BookingURL: link,
		State:      string(b.State),
		Film:       sh.Movie.Title, Rating: sh.Movie.Rating, RuntimeMin: sh.Movie.RuntimeMin,
		Theatre: sh.Theatre.Name, City: sh.Theatre.City, Screen: sh.Screen,
		StartsAt: sh.StartsAt, TimeZone: sh.Theatre.TimeZone,
		Seats: b.SeatIDs, Tickets: tickets(b), Amount: b.Amount.Format(b.Currency), TicketCode: b.TicketCode, Reason: reason,
	}
}

// tickets are b's seats as sold (SPEC §15), each "A1 Adult ₹180", with
// its type's note when it has one.
func tickets(b booking.Booking) []string {
	var out []string
	for _, t := range booking.TicketsOf(b) {
		s := t.SeatID + " " + t.TypeName()
		if t.Note != "" {
			s += " (" + t.Note + ")"
		}
		out = append(out, s+" "+t.Price.Format(b.Currency))
	}
	return out
}
