package tui

import (
	"bytes"
	"strings"

	"lanes/state"

	"github.com/charmbracelet/x/ansi"
)

// previewMaxH bounds the preview's height; past it the lanes matter more.
const previewMaxH = 16

// preview shows the tail of the selected session's pane, colours kept.
// Lines are cut to width when they arrive or the size changes, so View only
// joins them.
type preview struct {
	name  string
	raw   []string
	lines []string // raw, cut and padded to w
	err   string
	w, h  int
}

// previewHeight is how tall the preview is in a main area of h rows.
func previewHeight(h int) int {
	return min(max(h/3, 5), previewMaxH)
}

func (p *preview) setSize(w, h int) {
	p.w, p.h = w, h
	p.cut()
}

// setContent takes a capture of session name's pane.
func (p *preview) setContent(name string, out []byte, err error) {
	p.name, p.err = name, ""
	if err != nil { // another host's words may be in it: printable only
		p.err = state.CleanText(err.Error())
	}
	p.raw = tailLines(out, previewMaxH)
	p.cut()
}

// clear empties the preview for a session that has no pane to capture.
func (p *preview) clear(name, why string) {
	p.name, p.raw, p.err = name, nil, state.CleanText(why)
	p.cut()
}

// tailLines keeps the last n lines of a capture, without the blank lines
// under the cursor, with tabs expanded so widths hold.
func tailLines(out []byte, n int) []string {
	out = bytes.TrimRight(out, " \n")
	if len(out) == 0 {
		return nil
	}
	all := strings.Split(string(out), "\n")
	for len(all) > 0 && blankLine(all[len(all)-1]) {
		all = all[:len(all)-1]
	}
	// A dead pane's last row is tmux's notice ("Pane is dead (status 2,
	// …)") under the rows its command never wrote: the command's last
	// lines go right above it, or a tall pane's preview shows only the
	// empty rows.
	if last := len(all) - 1; last > 0 && strings.HasPrefix(strings.TrimSpace(ansi.Strip(all[last])), "Pane is dead") {
		i := last
		for i > 0 && blankLine(all[i-1]) {
			i--
		}
		all = append(all[:i], all[last])
	}
	if len(all) > n {
		all = all[len(all)-n:]
	}
	for i, s := range all {
		all[i] = strings.ReplaceAll(s, "\t", "    ")
	}
	return all
}

func blankLine(s string) bool { return strings.TrimSpace(ansi.Strip(s)) == "" }

func (p *preview) cut() {
	p.lines = p.lines[:0]
	for _, s := range p.raw {
		s = ansi.Truncate(s, p.w, "")
		p.lines = append(p.lines, pad(s+ansi.ResetStyle, ansi.StringWidth(s), p.w))
	}
}

// render draws the preview as h lines: a rule naming the session, then the
// pane's last lines, bottom-aligned like the pane itself.
func (p preview) render(l *look) []string {
	out := make([]string, 0, p.h)
	title := " preview · " + p.name + " "
	if p.name == "" {
		title = " preview "
	}
	rule := "──" + title + strings.Repeat("─", max(p.w-ansi.StringWidth(title)-2, 0))
	out = append(out, fit(l.muted, rule, paint{}, "", p.w))
	body := p.h - 1
	if p.err != "" { // whole, over a few lines: a host's reason is long
		said := strings.Split(ansi.Wrap(p.err, max(p.w-2, 8), ""), "\n")
		for _, s := range said[:min(len(said), max(body-1, 1))] {
			out = append(out, fit(l.muted, "  "+s, paint{}, "", p.w))
			body--
		}
	}
	lines := p.lines
	if len(lines) > body {
		lines = lines[len(lines)-body:]
	}
	blank := strings.Repeat(" ", p.w)
	for len(out)+len(lines) < p.h {
		out = append(out, blank)
	}
	return append(out, lines...)
}
