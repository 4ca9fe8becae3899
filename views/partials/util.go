package partials

import "strconv"

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
