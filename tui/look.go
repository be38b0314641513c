package tui

import (
	"strings"

	"lanes/state"
	"lanes/theme"
	"lanes/theme/style"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// paint is a style reduced to the escape sequences around its text, so View
// can colour a string with two concatenations instead of a Lip Gloss render.
// It is only made from styles without padding, margins or borders.
type paint struct{ on, off string }

func paintOf(s lipgloss.Style) paint {
	out := s.Render("X")
	i := strings.IndexByte(out, 'X')
	if i < 0 {
		return paint{}
	}
	return paint{on: out[:i], off: out[i+1:]}
}

// s paints text.
func (p paint) s(text string) string {
	if p.on == "" {
		return text
	}
	return p.on + text + p.off
}

// look is everything View draws with for one theme: built once per theme
// change (style.New), then only read.
type look struct {
	st *style.Styles

	text, muted, name, brand paint
	errText                  paint
	selMark                  paint // the bar beside a selected compact row
	zone                     map[state.Zone]paint
	role                     map[theme.Role]paint
	badge                    map[state.Status]string // " glyph Label "
	badgeW                   map[state.Status]int
	badgeP                   map[state.Status]paint // the badge colours, for a custom label
	mark                     map[state.Mark]string  // "glyph label"
	markW                    map[state.Mark]int
	dot                      [2]map[state.Activity]string
	// sayGlyph and sayText paint what a card says: a tool muted behind
	// the working glyph, a question whole in the needs-you colour, a
	// message muted and italic inside quotes.
	sayGlyph, sayText map[state.Say]paint

	// Card frames: the border shapes come from theme (rounded, thick when
	// selected); the colour says what kind of card it is.
	plain, selected lipgloss.Border
	frame           map[frameKind]paint

	help  help.Styles
	input textinput.Styles
}

// frameKind is a card's frame treatment.
type frameKind uint8

const (
	frameLive frameKind = iota
	frameSelected
	frameMerged     // done, merged: green accent
	frameTerminated // done, terminated: graphite
)

func newLook(isDark, noColor bool) *look {
	st := style.New(isDark, noColor)
	l := &look{
		st:       st,
		text:     paintOf(st.Text),
		muted:    paintOf(st.Muted),
		name:     paintOf(st.Text.Bold(true)),
		brand:    paintOf(st.Text.Bold(true).Reverse(true)),
		errText:  paintOf(st.Accent(theme.RoleDanger).Bold(true)),
		selMark:  paintOf(st.Selection.Bold(true)),
		zone:     map[state.Zone]paint{},
		role:     map[theme.Role]paint{},
		badge:    map[state.Status]string{},
		badgeW:   map[state.Status]int{},
		markW:    map[state.Mark]int{},
		badgeP:   map[state.Status]paint{},
		mark:     map[state.Mark]string{},
		dot:      [2]map[state.Activity]string{{}, {}},
		plain:    st.Card.GetBorderStyle(),
		selected: st.SelectedCard.GetBorderStyle(),
		frame:    map[frameKind]paint{},
		sayGlyph: map[state.Say]paint{},
		sayText:  map[state.Say]paint{},
	}
	for _, z := range state.Zones {
		l.zone[z] = paintOf(st.HeaderStyle(z))
	}
	for _, r := range theme.Roles {
		l.role[r] = paintOf(st.Accent(r))
	}
	for _, s := range state.Statuses {
		l.badge[s] = st.Badge(s)
		l.badgeW[s] = lipgloss.Width(l.badge[s])
		l.badgeP[s] = paintOf(st.BadgeStyle(s).UnsetPadding())
	}
	for _, m := range state.Marks {
		l.mark[m] = st.Mark(m)
		l.markW[m] = lipgloss.Width(l.mark[m])
	}
	for _, a := range state.Activities {
		l.dot[0][a] = st.DotFrame(a, 0)
		l.dot[1][a] = st.DotFrame(a, 1)
	}
	l.sayGlyph[state.SayTool], l.sayText[state.SayTool] = l.role[theme.RoleWorking], l.muted
	l.sayGlyph[state.SayAsk] = paintOf(st.Accent(theme.RoleNeeds).Bold(true))
	l.sayText[state.SayAsk] = l.role[theme.RoleNeeds]
	l.sayGlyph[state.SayPermission], l.sayText[state.SayPermission] = l.sayGlyph[state.SayAsk], l.sayText[state.SayAsk]
	l.sayGlyph[state.SayMessage] = l.muted
	l.sayText[state.SayMessage] = paintOf(st.Muted.Italic(true))
	l.frame[frameLive] = paintOf(st.Frame)
	l.frame[frameSelected] = paintOf(st.Selection.Bold(true))
	l.frame[frameMerged] = l.role[theme.RoleMerged]
	l.frame[frameTerminated] = l.role[theme.RoleTerminated]

	l.help = help.DefaultStyles(isDark)
	l.help.ShortKey = st.Text.Bold(true)
	l.help.FullKey = st.Text.Bold(true)
	l.help.ShortDesc, l.help.FullDesc = st.Muted, st.Muted
	l.help.ShortSeparator, l.help.FullSeparator, l.help.Ellipsis = st.Muted, st.Muted, st.Muted

	l.input = textinput.DefaultStyles(isDark)
	l.input.Cursor.Blink = false // a blinking cursor would tick the program
	l.input.Focused.Prompt = st.Text.Bold(true)
	l.input.Blurred.Prompt = st.Muted
	l.input.Focused.Text = st.Text
	l.input.Blurred.Text = st.Muted
	if noColor {
		l.input.Focused.Placeholder = lipgloss.NewStyle()
		l.input.Blurred.Placeholder = lipgloss.NewStyle()
		l.input.Focused.Suggestion = lipgloss.NewStyle()
		l.input.Blurred.Suggestion = lipgloss.NewStyle()
	}
	return l
}

// dotFor is the raw-activity dot at animation frame f (only active breathes).
func (l *look) dotFor(a state.Activity, f int) string {
	if d, ok := l.dot[f&1][a]; ok {
		return d
	}
	return l.dot[f&1][state.ActivityUnknown]
}

// badgeFor is the badge of status s in at most room cells, and its width;
// label replaces the status's own short label when set (an exit detail such
// as "exited (3)"). A badge too wide for the card loses its padding, then
// its tail.
func (l *look) badgeFor(s state.Status, label string, room int) (string, int) {
	if _, ok := l.badge[s]; !ok {
		s = state.StatusUnknown
	}
	if label == "" {
		if l.badgeW[s] <= room {
			return l.badge[s], l.badgeW[s]
		}
		label = theme.StatusSpec(s).Short
	}
	text := theme.StatusSpec(s).Glyph + " " + label
	if w := width(text); w+2 <= room {
		return l.badgeP[s].s(" " + text + " "), w + 2
	}
	text = truncate(text, room)
	return l.badgeP[s].s(text), width(text)
}

// markFor is mark m as "glyph label" in its colour, and its width.
func (l *look) markFor(m state.Mark) (string, int) {
	return l.mark[m], l.markW[m]
}
