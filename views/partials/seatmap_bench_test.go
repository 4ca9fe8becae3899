package partials

import (
	"context"
	"io"
	"strconv"
	"testing"

	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// BenchmarkSeatMap renders the fragment of a 500-seat show, as every seat
// map view, live refresh and 409 answer does, in English and in Hindi (the
// fragment's own words through i18n.T; the seats' names are the model's).
func BenchmarkSeatMap(b *testing.B) {
	m := model.SeatMap{Show: model.Show{ID: "show1"}, FragmentURL: "/shows/show1/seatmap", ETag: `"e"`, ServerNow: "2026-11-30T10:00:00.000Z"}
	for band := range 2 {
		bd := model.Band{Name: "Prime", Price: "₹250", PriceMinor: 25000}
		for r := range 10 {
			label := string(rune('A' + band*10 + r))
			row := model.Row{Label: label}
			for c := range 25 {
				id := label + strconv.Itoa(c+1)
				state := []string{"available", "held", "booked", "mine"}[(r*25+c)%4]
				row.Cells = append(row.Cells, model.Cell{Seat: &model.Seat{
					ID: id, Number: strconv.Itoa(c + 1), State: state, Category: "Prime",
					Price: 25000, PriceText: "₹250", Name: "Row " + label + ", seat " + strconv.Itoa(c+1) + ", Prime, ₹250, " + state,
					Status: state, Disabled: state == "booked",
				}})
			}
			bd.Rows = append(bd.Rows, row)
		}
		m.Bands = append(m.Bands, bd)
	}
	for _, lang := range []i18n.Lang{i18n.English, i18n.Hindi} {
		ctx := i18n.WithLocalizer(context.Background(), i18n.For(lang))
		b.Run(string(lang), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := SeatMap(m).Render(ctx, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
