package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// refundQueuePath is the site's refund queue; refundQueueFrom is the value
// of the refund actions' from= that sends them back to it.
const (
	refundQueuePath = "/admin/refunds"
	refundQueueFrom = "refunds"
)

// handleAdminRefunds is GET /admin/refunds?page=N: every show's refund_due
// bookings, the longest waiting first, adminPageSize a page (paged in the
// store), each with its show, amount, since when and channel, and the show
// page's actions: Refund and "refunded outside boxoffice" for an online
// booking (coming back here), the counter for a box-office one.
func (s *Server) handleAdminRefunds(c echo.Context) error {
	ctx := c.Request().Context()
	page := 1
	if p := c.QueryParam("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > adminMaxPage {
			return booking.Errorf(booking.EINVALID, "%q is not a page: pages are whole numbers from 1.", booking.Truncate(p, 20))
		}
		page = n
	}
	list, err := s.svc.RefundQueue(ctx, adminPageSize+1, (page-1)*adminPageSize)
	if err != nil {
		return err
	}
	m := model.AdminRefunds{AdminPage: s.adminPage(c, "Refunds due"), Page: page}
	if id := c.QueryParam("refunded"); id != "" {
		m.Notice = &model.Notice{Kind: "info", Text: "Refund recorded for booking " + short(id) + "."}
	}
	if len(list) > adminPageSize {
		list = list[:adminPageSize]
		m.NextURL = refundQueuePath + "?page=" + strconv.Itoa(page+1)
	}
	switch {
	case page == 2:
		m.PrevURL = refundQueuePath
	case page > 2:
		m.PrevURL = refundQueuePath + "?page=" + strconv.Itoa(page-1)
	}
	shows := map[string]booking.Show{}
	for _, b := range list {
		sh, ok := shows[b.ShowID]
		if !ok {
			if sh, err = s.svc.Show(ctx, b.ShowID); err != nil {
				return err
			}
			shows[b.ShowID] = sh
		}
		bm := s.adminBookingModel(b, s.showLocation(sh))
		if bm.RefundAction != "" {
			bm.RefundAction += "?from=" + refundQueueFrom
			bm.RefundedElsewhereAction += "?from=" + refundQueueFrom
		}
		channel := string(b.Channel)
		if channel == "" {
			channel = string(booking.ChannelOnline)
		}
		m.Items = append(m.Items, model.AdminRefundItem{
			AdminBooking: bm, Show: s.adminShowModel(sh), ShowURL: adminShowURL(sh.ID),
			Since: b.UpdatedAt.In(s.showLocation(sh)).Format("2 Jan 2006 15:04 MST"), Channel: channel,
		})
	}
	return s.render(c, http.StatusOK, pages.AdminRefunds(m))
}

// refundDone is where a refund action goes when done: back to the queue
// when it was pressed there (from=refunds), else to the booking's show.
func refundDone(c echo.Context, b booking.Booking) error {
	if c.QueryParam("from") == refundQueueFrom {
		return redirect(c, refundQueuePath+"?refunded="+b.ID)
	}
	return redirect(c, adminShowURL(b.ShowID)+"?refunded="+b.ID)
}
