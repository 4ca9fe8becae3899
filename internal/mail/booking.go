package mail

import (
	"net/url"

	"boxoffice/internal/booking"
)

// About is what outbox mail m about booking b of show sh says, its link
// on publicURL (PUBLIC_URL).
func About(m booking.Mail, b booking.Booking, sh booking.Show, publicURL string) Message {
	reason := b.Reason
	if reason == booking.ReasonShowCancelled {
		reason = "The show was cancelled."
	}
	return Message{
		ID: m.ID, Kind: Kind(m.Kind), To: m.To, BookingID: b.ID,
		BookingURL: publicURL + "/bookings/" + b.ID + "?key=" + url.QueryEscape(b.Key),
		State:      string(b.State),
		Film:       sh.Movie.Title, Rating: sh.Movie.Rating, RuntimeMin: sh.Movie.RuntimeMin,
		Theatre: sh.Theatre.Name, City: sh.Theatre.City, Screen: sh.Screen,
		StartsAt: sh.StartsAt, TimeZone: sh.Theatre.TimeZone,
		Seats: b.SeatIDs, Amount: b.Amount.Format(b.Currency), TicketCode: b.TicketCode, Reason: reason,
	}
}
