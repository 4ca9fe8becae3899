package mail

import (
	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

// About is what outbox mail m about booking b of show sh says, link being
// b's booking link, in b's language (SPEC §19): its amount and prices
// formatted for it.
func About(m booking.Mail, b booking.Booking, sh booking.Show, link string) Message {
	lang := langOf(b.Lang)
	loc := i18n.For(lang)
	reason := booking.ReasonText(loc, b.Reason)
	return Message{
		ID: m.ID, Kind: Kind(m.Kind), To: m.To, BookingID: b.ID,
		BookingURL: link,
		State:      string(b.State),
		Film:       sh.Movie.Title, Rating: sh.Movie.Rating, RuntimeMin: sh.Movie.RuntimeMin,
		Theatre: sh.Theatre.Name, City: sh.Theatre.City, Screen: sh.Screen,
		StartsAt: sh.StartsAt, TimeZone: sh.Theatre.TimeZone,
		Seats: b.SeatIDs, Tickets: tickets(loc, b), Amount: loc.Money(int64(b.Amount), b.Currency), TicketCode: b.TicketCode, Reason: reason,
		Lang: string(lang),
	}
}

// tickets are b's seats as sold (SPEC §15), each "A1 Adult ₹180", with
// its type's note when it has one.
func tickets(loc *i18n.Localizer, b booking.Booking) []string {
	var out []string
	for _, t := range booking.TicketsOf(b) {
		s := t.SeatID + " " + t.TypeName()
		if t.Note != "" {
			s += " (" + t.Note + ")"
		}
		out = append(out, s+" "+loc.Money(int64(t.Price), b.Currency))
	}
	return out
}
