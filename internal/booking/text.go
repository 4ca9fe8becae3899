package booking

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// RefusedRune finds, in text a person typed (a catalog name, a layout and
// its notes, an email address), the first character SPEC §12 refuses: a
// control character (C0, DEL, C1), one that overrides or marks the
// direction of text (U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069), which can make a name read differently from what it is,
// or a byte that is not UTF-8. The runes of allowed pass (a layout has
// its line breaks). It returns the refused character, its 0-based index
// in runes, and whether there is one.
func RefusedRune(text string, allowed ...rune) (r rune, at int, found bool) {
	i := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRuneInString(text)
		text = text[size:]
		if r == utf8.RuneError && size == 1 {
			return r, i, true
		}
		if refusedRune(r) && !containsRune(allowed, r) {
			return r, i, true
		}
		i++
	}
	return 0, 0, false
}

func refusedRune(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u061C', r == '\u200E', r == '\u200F':
		return true
	case '\u202A' <= r && r <= '\u202E':
		return true
	case '\u2066' <= r && r <= '\u2069':
		return true
	}
	return false
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// describeRune names a refused character for a message: its code point,
// since it is invisible or would turn the message around.
func describeRune(r rune) string {
	if r == utf8.RuneError {
		return "a byte that is not text"
	}
	return fmt.Sprintf("an invisible control character (U+%04X)", r)
}

// refusedText is the message for field label when text holds a character
// RefusedRune refuses, "" when it holds none.
func refusedText(label, text string, allowed ...rune) string {
	r, _, found := RefusedRune(text, allowed...)
	if !found {
		return ""
	}
	return fmt.Sprintf("%s has %s; type it again, without control or text-direction characters.", label, describeRune(r))
}
