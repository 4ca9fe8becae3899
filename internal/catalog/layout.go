// Package catalog builds shows and their seats for the store's CreateShow:
// the demo catalog an empty database gets, and synthetic shows for load
// tests ("boxoffice seed"). It does no I/O.
package catalog

import (
	"fmt"
	"strconv"

	"boxoffice/internal/booking"
)

// ShowSeats is one show with every seat it sells, ready for
// booking.Store.CreateShow.
type ShowSeats struct {
	Show  booking.Show
	Seats []booking.Seat
	// CardID is the price card the show is made with; "" for none (the
	// implicit standard type at its seats' prices).
	CardID string
}

// Band is a run of rows sold as one category, e.g. three rows of Classic.
type Band struct {
	Category string
	Price    booking.Money
	Rows     int
	// Blocks are the seats per block from left to right; an aisle separates
	// neighbouring blocks. Bands may differ: recliners are wider, so fewer
	// fit in a row.
	Blocks []int
}

// Layout is a screen's seating plan, bands listed from the screen back.
type Layout struct {
	Bands []Band
	// AccessibleRow is the 0-based seat row (counting from the screen, over
	// all bands) whose outermost places become a wheelchair space with a
	// companion seat beside it; AccessiblePairs says how many (1: the left
	// end, 2: both ends). Rows near a cross-aisle have step-free access.
	AccessibleRow   int
	AccessiblePairs int
}

// MaxRows is how many rows the labels A..Z, AA..ZZ can name.
const MaxRows = 26 * 27

// MaxSeatsPerRow keeps seat numbers within three digits, as seat ids allow.
const MaxSeatsPerRow = 999

// RowLabel names row i (0-based, from the screen): A..Z, then AA..AZ, BA..,
// up to ZZ.
func RowLabel(i int) string {
	if i < 0 || i >= MaxRows {
		panic("catalog: row " + strconv.Itoa(i) + " out of range")
	}
	if i < 26 {
		return string(rune('A' + i))
	}
	i -= 26
	return string([]rune{rune('A' + i/26), rune('A' + i%26)})
}

// Seats lays out l as available seats for no show yet (ShowID empty): rows
// labelled from A at the screen, seat numbers from 1 at the left that go on
// across aisles while GridCol jumps over them, one empty grid line between
// bands as a cross-aisle, and narrower blocks centred under wider ones.
func (l Layout) Seats() []booking.Seat {
	width := 0
	for _, b := range l.Bands {
		width = max(width, blocksWidth(b.Blocks))
	}
	var seats []booking.Seat
	row, gridRow := 0, 0
	for bi, b := range l.Bands {
		if bi > 0 {
			gridRow++ // cross-aisle between categories
		}
		offset := (width - blocksWidth(b.Blocks)) / 2
		for r := 0; r < b.Rows; r++ {
			label := RowLabel(row)
			start := len(seats)
			number, col := 1, offset
			for k, n := range b.Blocks {
				if k > 0 {
					col++ // aisle
				}
				for range n {
					seats = append(seats, booking.Seat{
						ID: label + strconv.Itoa(number), Row: label, Number: number,
						GridRow: gridRow, GridCol: col,
						Category: b.Category, Price: b.Price,
						Kind: booking.KindStandard, Status: booking.SeatAvailable,
					})
					number++
					col++
				}
			}
			if row == l.AccessibleRow && l.AccessiblePairs > 0 {
				markAccessible(seats[start:], l.AccessiblePairs)
			}
			row++
			gridRow++
		}
	}
	return seats
}

// markAccessible turns the outermost seats of a row into a wheelchair space
// with its companion seat inside it: at the left end, and with two pairs at
// the right end too.
func markAccessible(row []booking.Seat, pairs int) {
	pairs = min(pairs, 2)
	if len(row) < 4*pairs {
		return // too short a row to give up its ends
	}
	row[0].Kind, row[1].Kind = booking.KindWheelchair, booking.KindCompanion
	if pairs >= 2 {
		n := len(row)
		row[n-1].Kind, row[n-2].Kind = booking.KindWheelchair, booking.KindCompanion
	}
}

func blocksWidth(blocks []int) int {
	w := 0
	for _, n := range blocks {
		w += n
	}
	return w + max(len(blocks)-1, 0)
}

// ForShow returns a copy of seats belonging to show id.
func ForShow(seats []booking.Seat, id string) []booking.Seat {
	out := make([]booking.Seat, len(seats))
	for i, s := range seats {
		s.ShowID = id
		out[i] = s
	}
	return out
}

// CheckSize reports whether a synthetic screen of rows×cols seats can be
// labelled by seat ids.
func CheckSize(rows, cols int) error {
	if rows < 1 || rows > MaxRows {
		return fmt.Errorf("rows must be from 1 to %d", MaxRows)
	}
	if cols < 1 || cols > MaxSeatsPerRow {
		return fmt.Errorf("cols must be from 1 to %d", MaxSeatsPerRow)
	}
	return nil
}
