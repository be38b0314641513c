// Package svgshot draws a terminal screen, as `tmux capture-pane -p -e`
// prints it (text and SGR sequences), as an SVG picture: the README's
// picture of the board (scripts/agents --picture).
package svgshot

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Cell size in the picture, in pixels: a monospace font's advance and
// line height at 14px.
const (
	cellW = 8.4
	cellH = 18
	pad   = 16
)

// style is a run's SGR state.
type style struct {
	fg, bg             string // "#rrggbb", "" for the default
	bold, faint        bool
	italic, underline  bool
	reverse, strikeout bool
}

// run is text of one style starting at a column.
type run struct {
	col  int
	text string
	st   style
}

// Render draws screen (lines of text with SGR sequences) as an SVG of
// cols × rows cells, on bg with default text fg, with a title bar.
func Render(screen string, cols, rows int, fg, bg, title string) []byte {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) > rows {
		lines = lines[:rows]
	}
	w := float64(cols)*cellW + 2*pad
	h := float64(rows)*cellH + 2*pad + 28
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="8" fill="%s"/>`+"\n", bg)
	for i, c := range []string{"#ff5f57", "#febc2e", "#28c840"} {
		fmt.Fprintf(&b, `<circle cx="%d" cy="16" r="6" fill="%s"/>`+"\n", 20+i*20, c)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="20" fill="%s" font-family="ui-monospace,Menlo,Consolas,monospace" font-size="12" text-anchor="middle" opacity="0.6">%s</text>`+"\n", w/2, fg, html.EscapeString(title))
	fmt.Fprintf(&b, `<g font-family="ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace" font-size="14" fill="%s" xml:space="preserve">`+"\n", fg)
	for y, line := range lines {
		top := float64(pad+28) + float64(y)*cellH
		for _, r := range runs(line) {
			drawRun(&b, r, top, fg, bg)
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return []byte(b.String())
}

// drawRun draws one run: its background, then its text.
func drawRun(b *strings.Builder, r run, top float64, fg, bg string) {
	f, k := r.st.fg, r.st.bg
	if r.st.reverse {
		f, k = cmpOr(k, bg), cmpOr(f, fg)
	}
	width := ansi.StringWidth(r.text)
	x := float64(pad) + float64(r.col)*cellW
	if k != "" {
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"/>`+"\n", x, top, float64(width)*cellW, cellH, k)
	}
	if strings.TrimSpace(r.text) == "" {
		return
	}
	attrs := ""
	if f != "" {
		attrs += ` fill="` + f + `"`
	}
	if r.st.bold {
		attrs += ` font-weight="bold"`
	}
	if r.st.faint {
		attrs += ` opacity="0.6"`
	}
	if r.st.italic {
		attrs += ` font-style="italic"`
	}
	if r.st.underline || r.st.strikeout {
		attrs += ` text-decoration="` + map[bool]string{true: "underline", false: "line-through"}[r.st.underline] + `"`
	}
	// Each cell placed where the terminal draws it: fonts differ in their
	// box-drawing and symbol advances.
	fmt.Fprintf(b, `<text y="%.1f"%s>`, top+cellH-4.5, attrs)
	col := r.col
	for _, c := range r.text {
		cw := ansi.StringWidth(string(c))
		if c != ' ' {
			fmt.Fprintf(b, `<tspan x="%.1f">%s</tspan>`, float64(pad)+float64(col)*cellW, html.EscapeString(string(c)))
		}
		col += cw
	}
	b.WriteString("</text>\n")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// runs splits a line into runs of one style, reading its SGR sequences
// (any other sequence is dropped).
func runs(line string) []run {
	var out []run
	var st style
	col := 0
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, run{col: col, text: cur.String(), st: st})
			col += ansi.StringWidth(cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(line); {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			end := i + 2
			for end < len(line) && (line[end] < 0x40 || line[end] > 0x7e) {
				end++
			}
			if end < len(line) && line[end] == 'm' {
				flush()
				st = st.apply(line[i+2 : end])
			}
			i = end + 1
			continue
		}
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == ']' { // OSC: to BEL or ST
			end := strings.IndexByte(line[i:], 0x07)
			if st := strings.Index(line[i:], "\x1b\\"); st >= 0 && (end < 0 || st < end) {
				end = st + 1
			}
			if end < 0 {
				break
			}
			i += end + 1
			continue
		}
		if line[i] == 0x1b {
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		cur.WriteRune(r)
		i += size
	}
	flush()
	return out
}

// apply is st after the SGR parameters params.
func (st style) apply(params string) style {
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	if len(ps) == 0 {
		return style{}
	}
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case n == 0:
			st = style{}
		case n == 1:
			st.bold = true
		case n == 2:
			st.faint = true
		case n == 3:
			st.italic = true
		case n == 4:
			st.underline = true
		case n == 7:
			st.reverse = true
		case n == 9:
			st.strikeout = true
		case n == 22:
			st.bold, st.faint = false, false
		case n == 23:
			st.italic = false
		case n == 24:
			st.underline = false
		case n == 27:
			st.reverse = false
		case n == 29:
			st.strikeout = false
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			st.fg = basic(n%10 + map[bool]int{true: 8, false: 0}[n >= 90])
		case n == 39:
			st.fg = ""
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			st.bg = basic(n%10 + map[bool]int{true: 8, false: 0}[n >= 100])
		case n == 49:
			st.bg = ""
		case n == 38 || n == 48:
			c, used := extended(ps[i+1:])
			i += used
			if n == 38 {
				st.fg = c
			} else {
				st.bg = c
			}
		}
	}
	return st
}

// extended reads 5;N or 2;R;G;B after a 38 or 48: the colour and how
// many parameters it took.
func extended(ps []string) (string, int) {
	num := func(i int) int {
		if i >= len(ps) {
			return 0
		}
		n, _ := strconv.Atoi(ps[i])
		return n
	}
	switch num(0) {
	case 5:
		return xterm(num(1)), 2
	case 2:
		return fmt.Sprintf("#%02x%02x%02x", num(1)&255, num(2)&255, num(3)&255), 4
	}
	return "", 1
}

// basic is one of the 16 ANSI colours (xterm's defaults).
func basic(n int) string {
	return []string{"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
		"#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"}[n&15]
}

// xterm is colour n of the 256-colour palette.
func xterm(n int) string {
	switch {
	case n < 16:
		return basic(n)
	case n < 232:
		n -= 16
		lv := []int{0, 95, 135, 175, 215, 255}
		return fmt.Sprintf("#%02x%02x%02x", lv[n/36], lv[n/6%6], lv[n%6])
	default:
		g := 8 + (n-232)*10
		return fmt.Sprintf("#%02x%02x%02x", g, g, g)
	}
}
