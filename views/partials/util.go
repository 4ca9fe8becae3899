package partials

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// reserveMark is a reserve's letter on the admin's map: H for house, X
// for blocked.
func reserveMark(reserve string) string {
	if reserve == "house" {
		return "H"
	}
	return "X"
}
