package partials

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// prefixed is sep+v, or "" when v is empty.
func prefixed(sep, v string) string {
	if v == "" {
		return ""
	}
	return sep + v
}
