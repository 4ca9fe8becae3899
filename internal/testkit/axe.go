package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// AxeTags are the rule sets Axe runs: WCAG 2.0, 2.1 and 2.2, levels A and
// AA, and axe-core's best practices (one heading level one, landmarks
// unique, all content in a landmark, and the rest). AxeRules are rules it
// runs besides the tags: region, which best-practice names already, kept
// so that it stays on if the tags change.
var AxeTags, AxeRules = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}, []string{"region"}

// axePath is where npm ci puts axe-core, from the module's root. It is a
// test asset only, a devDependency: never copied into static/, never served.
const axePath = "node_modules/axe-core/axe.min.js"

var axeSource = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, axePath))
			return string(b), err
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", os.ErrNotExist
		}
		dir = up
	}
})

// NeedAxe returns the source of axe-core, read from node_modules at the
// root of the module. Without it the test skips (run make assets, or npm
// ci), except when CI is set, as NeedBrowser does.
func NeedAxe(t testing.TB) string {
	t.Helper()
	src, err := axeSource()
	if err != nil {
		SkipUnlessCI(t, axePath+" is missing ("+err.Error()+"): run make assets, or npm ci",
			"the accessibility test must run there")
	}
	return src
}

// AxeViolation is one rule axe-core finds broken, with the nodes that
// break it.
type AxeViolation struct {
	ID      string     `json:"id"`
	Impact  string     `json:"impact"`
	Help    string     `json:"help"`
	HelpURL string     `json:"helpUrl"`
	Nodes   []AxeNodes `json:"nodes"`
}

// AxeNodes is one node of a violation: its selector and what is wrong.
type AxeNodes struct {
	Target  string `json:"target"`
	Summary string `json:"summary"`
}

// Axe injects axe-core into b's page, as it is now, runs the WCAG A and AA
// rules and the best practices (AxeTags, and AxeRules) on the whole document and fails the test with every
// violation: its rule, impact, help URL and the selectors of its nodes.
// what names the page in failures.
func Axe(b *Browser, what string) {
	b.T.Helper()
	src := NeedAxe(b.T)
	if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](`(() => { if (!window.axe) { `+src+`
}; return true })()`)); err != nil {
		b.T.Fatalf("%sinjecting axe-core into %s: %v", b.prefix(), what, err)
	}
	tags := `['` + strings.Join(AxeTags, `','`) + `']`
	rules := `{'` + strings.Join(AxeRules, `': {enabled: true}, '`) + `': {enabled: true}}`
	violations, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]AxeViolation](`axe.run(document, {runOnly: {type: 'tag', values: `+tags+`}, rules: `+rules+`}).then(r => r.violations.map(v => ({
	id: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl,
	nodes: v.nodes.map(n => ({target: n.target.flat(Infinity).join(' '), summary: n.failureSummary || ''})),
})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.T.Fatalf("%srunning axe-core on %s: %v", b.prefix(), what, err)
	}
	for _, v := range violations {
		var s strings.Builder
		for _, n := range v.Nodes {
			s.WriteString("\n\t" + n.Target)
			if n.Summary != "" {
				s.WriteString(": " + strings.ReplaceAll(n.Summary, "\n", " "))
			}
		}
		b.T.Errorf("%saxe on %s: %s (%s) %s, %s%s", b.prefix(), what, v.ID, v.Impact, v.Help, v.HelpURL, s.String())
	}
}
