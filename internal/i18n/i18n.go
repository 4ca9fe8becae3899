// Package i18n puts boxoffice's interface into English, Hindi and Tamil
// (SPEC §19). Messages live in TOML files under locales/, one file per area
// and language ("seatmap.hi.toml"), loaded by go-i18n (github.com/nicksnyder/
// go-i18n/v2), which also picks the plural form by CLDR's rules; numbers and
// money are formatted by golang.org/x/text's number and currency packages.
//
// A request carries one *Localizer in its context (WithLocalizer); templates
// call T(ctx, id). A Localizer is built once per language at start, so a
// request pays for nothing but the look-ups.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Lang is a supported language's code, as ?lang=, the lang cookie and
// <html lang> spell it.
type Lang string

// The languages boxoffice speaks, English first: the default and the
// fallback of a missing message.
const (
	English Lang = "en"
	Hindi   Lang = "hi"
	Tamil   Lang = "ta"
)

// Langs are the supported languages in the switcher's order.
var Langs = []Lang{English, Hindi, Tamil}

// Native is the language's name in itself, as its switcher link reads.
func (l Lang) Native() string {
	switch l {
	case Hindi:
		return "हिन्दी"
	case Tamil:
		return "தமிழ்"
	}
	return "English"
}

// Parse reads a language code, any case; ok is false for an unsupported one.
func Parse(s string) (Lang, bool) {
	l := Lang(strings.ToLower(strings.TrimSpace(s)))
	for _, k := range Langs {
		if l == k {
			return l, true
		}
	}
	return "", false
}

//go:embed locales/*.toml
var files embed.FS

// Catalog is every message of every language, as loaded from locales/.
type Catalog struct {
	bundle *goi18n.Bundle
	// texts[lang][id] is each message's "other" form, for plain look-ups
	// without go-i18n's per-call matching and template execution.
	texts map[Lang]map[string]string
	// templated[lang][id] says the message has {{.Field}} arguments or
	// plural forms, so it goes through go-i18n's Localize.
	templated map[Lang]map[string]bool
	locs      map[Lang]*Localizer
	// scripts[lang] is the js.* messages as JSON, for the page's scripts.
	scripts map[Lang]string
}

var (
	loadOnce sync.Once
	loaded   *Catalog
	loadErr  error
)

// Load parses the embedded catalog once; a broken file is a programming
// error found by this package's tests, so the server refuses to start on it.
func Load() (*Catalog, error) {
	loadOnce.Do(func() { loaded, loadErr = load(files) })
	return loaded, loadErr
}

// MustLoad is Load for start-up and tests.
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(err)
	}
	return c
}

func load(fsys fs.FS) (*Catalog, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{bundle: b, texts: map[Lang]map[string]string{}, templated: map[Lang]map[string]bool{},
		locs: map[Lang]*Localizer{}, scripts: map[Lang]string{}}
	scripts := map[Lang]map[string]map[string]string{}
	for _, l := range Langs {
		c.texts[l], c.templated[l] = map[string]string{}, map[string]bool{}
	}
	names, err := fs.Glob(fsys, "locales/*.toml")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		buf, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		mf, err := b.ParseMessageFileBytes(buf, path.Base(name))
		if err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
		l, ok := Parse(mf.Tag.String())
		if !ok {
			return nil, fmt.Errorf("i18n: %s: language %q is not supported", name, mf.Tag)
		}
		for _, m := range mf.Messages {
			if _, dup := c.texts[l][m.ID]; dup {
				return nil, fmt.Errorf("i18n: %s: message %q is defined twice", name, m.ID)
			}
			c.texts[l][m.ID] = m.Other
			if strings.HasPrefix(m.ID, scriptPrefix) {
				forms := map[string]string{"other": m.Other}
				if m.One != "" {
					forms["one"] = m.One
				}
				if scripts[l] == nil {
					scripts[l] = map[string]map[string]string{}
				}
				scripts[l][strings.TrimPrefix(m.ID, scriptPrefix)] = forms
			}
			if m.One != "" || m.Few != "" || m.Many != "" || m.Two != "" || m.Zero != "" ||
				strings.Contains(m.Other, "{{") {
				c.templated[l][m.ID] = true
			}
		}
	}
	for _, l := range Langs {
		c.locs[l] = newLocalizer(c, l)
		buf, err := json.Marshal(scripts[l])
		if err != nil {
			return nil, err
		}
		c.scripts[l] = string(buf)
	}
	return c, nil
}

// scriptPrefix begins the ids of the messages the page's scripts write.
const scriptPrefix = "js."

// Scripts is the js.* messages of the Localizer's language as JSON, for
// the layout's <meta name="boxoffice-messages">: each id (without "js.")
// with its plural forms ("one", "other"), {{.Name}} left for the script.
func (l *Localizer) Scripts() string { return l.cat.scripts[l.Lang] }

// IDs are the English catalog's message ids, sorted.
func (c *Catalog) IDs() []string {
	ids := make([]string, 0, len(c.texts[English]))
	for id := range c.texts[English] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Text is message id's text in l as written in the catalog (its "other"
// form, arguments unfilled), and whether l has it.
func (c *Catalog) Text(l Lang, id string) (string, bool) {
	t, ok := c.texts[l][id]
	return t, ok
}

// Has reports whether l has message id.
func (c *Catalog) Has(l Lang, id string) bool {
	_, ok := c.texts[l][id]
	return ok
}

// Localizer is the Localizer for l (English for an unsupported one).
func (c *Catalog) Localizer(l Lang) *Localizer {
	if loc, ok := c.locs[l]; ok {
		return loc
	}
	return c.locs[English]
}

// For is the loaded catalog's Localizer for l.
func For(l Lang) *Localizer { return MustLoad().Localizer(l) }

// Localizer speaks one language: messages, numbers, money and dates.
type Localizer struct {
	Lang    Lang
	tag     language.Tag
	cat     *Catalog
	loc     *goi18n.Localizer
	en      *goi18n.Localizer
	printer *message.Printer // numbers in l's pattern
	indian  *message.Printer // numbers in Indian grouping (INR in every language)
	missing sync.Map
}

func newLocalizer(c *Catalog, l Lang) *Localizer {
	tag := language.MustParse(string(l))
	return &Localizer{
		Lang: l, tag: tag, cat: c,
		loc:     goi18n.NewLocalizer(c.bundle, string(l)),
		en:      goi18n.NewLocalizer(c.bundle, string(English)),
		printer: message.NewPrinter(tag),
		indian:  message.NewPrinter(language.MustParse("en-IN")),
	}
}

// T is message id, which takes no arguments. A message missing in the
// language reads as in English; one missing from the catalog reads as its
// id, logged once, so that a test comparing pages finds it.
func (l *Localizer) T(id string) string {
	if t, ok := l.cat.texts[l.Lang][id]; ok && !l.cat.templated[l.Lang][id] {
		return t
	}
	if l.cat.templated[l.Lang][id] || l.cat.templated[English][id] {
		return l.F(id)
	}
	if t, ok := l.cat.texts[English][id]; ok {
		return t
	}
	l.warn(id)
	return id
}

// F is message id with its {{.Name}} arguments, given as name, value pairs:
// F("seatmap.left", "Count", 3).
func (l *Localizer) F(id string, args ...any) string {
	return l.localize(id, nil, args)
}

// N is message id in the plural form count asks for, with {{.Count}} set to
// count and any further name, value pairs.
func (l *Localizer) N(id string, count int, args ...any) string {
	return l.localize(id, count, append([]any{"Count", count}, args...))
}

func (l *Localizer) localize(id string, count any, args []any) string {
	data := make(map[string]any, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		if k, ok := args[i].(string); ok {
			data[k] = args[i+1]
		}
	}
	cfg := &goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count}
	if l.cat.Has(l.Lang, id) {
		if s, err := l.loc.Localize(cfg); err == nil {
			return s
		}
	}
	if s, err := l.en.Localize(cfg); err == nil {
		return s
	}
	l.warn(id)
	return id
}

func (l *Localizer) warn(id string) {
	if _, seen := l.missing.LoadOrStore(id, true); !seen {
		slog.Warn("i18n: no such message", "id", id, "lang", string(l.Lang))
	}
}

type ctxKey struct{}

// WithLocalizer is ctx carrying l, for the request's templates.
func WithLocalizer(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From is the Localizer ctx carries, else English's.
func From(ctx context.Context) *Localizer {
	if ctx != nil {
		if l, ok := ctx.Value(ctxKey{}).(*Localizer); ok {
			return l
		}
	}
	return For(English)
}

// T is message id in ctx's language: templates call i18n.T(ctx, "…").
func T(ctx context.Context, id string) string { return From(ctx).T(id) }

// F is message id with arguments in ctx's language.
func F(ctx context.Context, id string, args ...any) string { return From(ctx).F(id, args...) }

// N is message id's plural form for count in ctx's language.
func N(ctx context.Context, id string, count int, args ...any) string {
	return From(ctx).N(id, count, args...)
}
