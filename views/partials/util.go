package partials

import (
	"strconv"

	"boxoffice/views/model"
)

func itoa(n int) string { return strconv.Itoa(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// freeText says how many seats of a row can be chosen.
func freeText(n int) string {
	if n == 0 {
		return "none free"
	}
	return itoa(n) + " free"
}

// noneFree reports whether no seat of m can be chosen: its scrolling box is
// then a tab stop of its own, so the keyboard can still scroll it.
func noneFree(m model.SeatMap) bool {
	for _, b := range m.Bands {
		for _, r := range b.Rows {
			if r.Free > 0 {
				return false
			}
		}
	}
	return true
}
