package config

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "write README.md's table of settings from Vars")

// readme is the README whose table of settings these tests check.
const readme = "../../README.md"

// The comments around the table of settings in README.md.
const (
	readmeBegin = "<!-- settings: written from Vars in internal/config/config.go by go test ./internal/config -update -->\n"
	readmeEnd   = "<!-- end of settings -->\n"
)

// TestREADMESettings checks that README.md's table of settings is the one
// Vars makes; with -update it writes it there.
func TestREADMESettings(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(b), readmeBegin)
	got, after, ok2 := strings.Cut(rest, readmeEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the comments %q and %q around its table of settings", readme, readmeBegin, readmeEnd)
	}
	want := markdownTable()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(readme, []byte(before+readmeBegin+want+readmeEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote the table of settings of %s", readme)
		return
	}
	t.Errorf("%s's table of settings is not the one Vars makes; run go test ./internal/config -update (-README +Vars):\n%s",
		readme, cmp.Diff(strings.Split(got, "\n"), strings.Split(want, "\n")))
}

// readmeSettings returns the rows of README.md's table of settings, each
// cell as written: the table under the header "| variable | flag |
// default | meaning |".
func readmeSettings(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if l == "| variable | flag | default | meaning |" {
			start = i
			break
		}
	}
	if start < 0 || start+1 >= len(lines) || lines[start+1] != "| --- | --- | --- | --- |" {
		t.Fatalf("%s has no table of settings", readme)
	}
	var rows [][]string
	for _, l := range lines[start+2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		// Split on the | that are not escaped (\|) in a cell.
		l = strings.ReplaceAll(strings.Trim(l, "|"), `\|`, "\x00")
		var row []string
		for _, c := range strings.Split(l, "|") {
			row = append(row, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
		}
		rows = append(rows, row)
	}
	return rows
}

// TestUsageAgreesWithREADME reads the help "boxoffice -h" prints and the
// table of README.md, and checks that they list the same settings, each
// with the same flag, default and meaning.
func TestUsageAgreesWithREADME(t *testing.T) {
	var b bytes.Buffer
	PrintUsage(&b)
	help := map[string]string{} // flag and variable → the rest of the line, spaced out
	for _, l := range strings.Split(b.String(), "\n")[1:] {
		if f := strings.Fields(l); len(f) >= 2 {
			help[f[0]+" "+f[1]] = strings.Join(f[2:], " ")
		}
	}
	rows := readmeSettings(t)
	for _, row := range rows {
		if len(row) != 4 {
			t.Errorf("README row %q: want 4 cells: variable, flag, default, meaning", row)
			continue
		}
		key := plain(row[1]) + " " + plain(row[0])
		line, ok := help[key]
		if !ok {
			t.Errorf("README row %s has no line of its own in the help", key)
			continue
		}
		delete(help, key)
		def := plain(row[2])
		if def == "unset" {
			def = "(unset)"
		}
		if want := strings.Join(strings.Fields(def+" "+plain(row[3])), " "); line != want {
			t.Errorf("%s: the help says\n\t%s\nREADME.md says\n\t%s", key, line, want)
		}
	}
	for key := range help {
		t.Errorf("the help's %s is not in README.md's table", key)
	}
	if len(rows) != len(Vars) {
		t.Errorf("README.md's table has %d rows, want one per setting: %d", len(rows), len(Vars))
	}
}
