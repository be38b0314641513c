package style

import (
	"lanes/state"
	"lanes/theme"

	"charm.land/lipgloss/v2"
)

// breathGlyph is the second frame of the active dot: a ring around the dot,
// so the pulse shows even without colour.
const breathGlyph = "◉"

// Styles are the board's Lip Gloss styles for one background and colour mode,
// built once (when the terminal reports its background, or the theme is
// toggled) and then only read.
type Styles struct {
	// Text is primary text (a card's name); Muted is secondary text (ages,
	// branches, help).
	Text  lipgloss.Style
	Muted lipgloss.Style
	// Card and SelectedCard are the card frames. The selected card differs by
	// border shape as well as colour, so NO_COLOR keeps the selection visible.
	Card         lipgloss.Style
	SelectedCard lipgloss.Style
	// Frame and Selection are the colours of those frames, for text drawn
	// in them (a card's own border lines, the bar beside a selected row).
	Frame     lipgloss.Style
	Selection lipgloss.Style

	badges   map[state.Status]lipgloss.Style
	accents  map[theme.Role]lipgloss.Style
	headers  map[state.Zone]lipgloss.Style
	breathes lipgloss.Style
}

// New builds the styles for a dark or light background. With noColor
// (the caller honours NO_COLOR) the styles set no colour at all; glyphs,
// labels, bold and border shapes carry everything.
func New(isDark, noColor bool) *Styles {
	p := theme.For(isDark)
	s := &Styles{
		Text:         lipgloss.NewStyle(),
		Muted:        lipgloss.NewStyle(),
		Card:         lipgloss.NewStyle().Border(lipgloss.RoundedBorder()),
		SelectedCard: lipgloss.NewStyle().Border(lipgloss.ThickBorder()),
		Frame:        lipgloss.NewStyle(),
		Selection:    lipgloss.NewStyle(),
		badges:       make(map[state.Status]lipgloss.Style, len(state.Statuses)),
		accents:      make(map[theme.Role]lipgloss.Style, len(theme.Roles)),
		headers:      make(map[state.Zone]lipgloss.Style, len(state.Zones)),
	}
	for _, r := range theme.Roles {
		s.accents[r] = lipgloss.NewStyle()
	}
	for _, st := range state.Statuses {
		s.badges[st] = lipgloss.NewStyle().Padding(0, 1)
	}
	for _, z := range state.Zones {
		s.headers[z] = lipgloss.NewStyle().Bold(true)
	}
	s.breathes = lipgloss.NewStyle()
	if noColor {
		return s
	}

	s.Text = s.Text.Foreground(lipgloss.Color(p.Text))
	s.Muted = s.Muted.Foreground(lipgloss.Color(p.Muted))
	s.Card = s.Card.BorderForeground(lipgloss.Color(p.Border))
	s.SelectedCard = s.SelectedCard.BorderForeground(lipgloss.Color(p.Selected))
	s.Frame = s.Frame.Foreground(lipgloss.Color(p.Border))
	s.Selection = s.Selection.Foreground(lipgloss.Color(p.Selected))
	for _, r := range theme.Roles {
		s.accents[r] = s.accents[r].Foreground(p.Color(r))
	}
	for _, st := range state.Statuses {
		bg, fg := p.Badge(theme.StatusSpec(st).Role)
		s.badges[st] = s.badges[st].Background(bg).Foreground(fg)
	}
	for _, z := range state.Zones {
		s.headers[z] = s.headers[z].Foreground(p.Color(theme.ZoneSpec(z).Role))
	}
	s.breathes = s.accents[theme.RoleWorking]
	return s
}

// Accent is the foreground style of role r: dots, glyphs, counts.
func (s *Styles) Accent(r theme.Role) lipgloss.Style {
	if st, ok := s.accents[r]; ok {
		return st
	}
	return s.accents[theme.RoleUnknown]
}

// BadgeStyle is the style of status st's badge: its role colour as
// background with readable text (the merged surface with the merged accent).
func (s *Styles) BadgeStyle(st state.Status) lipgloss.Style {
	if b, ok := s.badges[st]; ok {
		return b
	}
	return s.badges[state.StatusUnknown]
}

// Badge renders status st as a badge: " glyph label ".
func (s *Styles) Badge(st state.Status) string {
	sp := theme.StatusSpec(st)
	return s.BadgeStyle(st).Render(sp.Glyph + " " + sp.Short)
}

// HeaderStyle is the style of zone z's lane header.
func (s *Styles) HeaderStyle(z state.Zone) lipgloss.Style {
	if h, ok := s.headers[z]; ok {
		return h
	}
	return s.Accent(theme.RoleUnknown).Bold(true)
}

// Header renders zone z's lane title: "glyph Name".
func (s *Styles) Header(z state.Zone) string {
	sp := theme.ZoneSpec(z)
	return s.HeaderStyle(z).Render(sp.Glyph + " " + sp.Short)
}

// Mark renders mark m as "glyph label" in its role colour.
func (s *Styles) Mark(m state.Mark) string {
	sp := theme.MarkSpec(m)
	return s.Accent(sp.Role).Render(sp.Glyph + " " + sp.Short)
}

// Dot renders activity a as a one-cell dot in its role colour, at rest.
func (s *Styles) Dot(a state.Activity) string {
	return s.DotFrame(a, 0)
}

// DotFrame renders activity a's dot at animation frame frame. Only an
// animating activity (active) changes with the frame: odd frames draw a ring,
// so the breath is visible with or without colour. Every other dot is static.
func (s *Styles) DotFrame(a state.Activity, frame int) string {
	sp := theme.ActivitySpec(a)
	if sp.Animates && frame%2 != 0 {
		return s.breathes.Render(breathGlyph)
	}
	return s.Accent(sp.Role).Render(sp.Glyph)
}
