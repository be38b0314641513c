package style

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"lanes/state"
	"lanes/theme"
)

func TestBadge(t *testing.T) {
	for _, isDark := range []bool{true, false} {
		for _, noColor := range []bool{true, false} {
			s := New(isDark, noColor)
			for _, st := range state.Statuses {
				sp := theme.StatusSpec(st)
				got := s.Badge(st)
				want := " " + sp.Glyph + " " + sp.Short + " "
				if plain := ansi.Strip(got); plain != want {
					t.Errorf("Badge(%s) = %q, want %q", st, plain, want)
				}
				if w := lipgloss.Width(got); w != lipgloss.Width(want) {
					t.Errorf("Badge(%s) is %d cells, want %d", st, w, lipgloss.Width(want))
				}
				if noColor && got != want {
					t.Errorf("NO_COLOR Badge(%s) = %q carries escapes", st, got)
				}
			}
		}
	}
}

func TestBadgeColours(t *testing.T) {
	for _, isDark := range []bool{true, false} {
		s := New(isDark, false)
		p := theme.For(isDark)
		for _, st := range state.Statuses {
			b := s.BadgeStyle(st)
			bg, fg := b.GetBackground(), b.GetForeground()
			if got := theme.Contrast(fg, bg); got < theme.MinTextContrast {
				t.Errorf("dark=%v badge %s: text contrast %.2f", isDark, st, got)
			}
			role := theme.StatusSpec(st).Role
			if theme.Contrast(bg, lipgloss.Color(p.Surface(role))) != 1 {
				t.Errorf("dark=%v badge %s: background is not %s", isDark, st, p.Surface(role))
			}
		}
		if theme.Contrast(s.BadgeStyle(state.StatusMerged).GetForeground(), p.Color(theme.RoleMerged)) != 1 {
			t.Errorf("dark=%v merged badge text is not the merged accent", isDark)
		}
	}
}

// TestNoColorCarriesNoColour: with NO_COLOR nothing the board draws sets a
// colour, yet selection stays visible through the border shape.
func TestNoColorCarriesNoColour(t *testing.T) {
	s := New(true, true)
	var out []string
	for _, st := range state.Statuses {
		out = append(out, s.Badge(st))
	}
	for _, a := range state.Activities {
		out = append(out, s.Dot(a), s.DotFrame(a, 1))
	}
	for _, z := range state.Zones {
		out = append(out, s.Header(z))
	}
	for _, m := range state.Marks {
		out = append(out, s.Mark(m))
	}
	for _, r := range theme.Roles {
		out = append(out, s.Accent(r).Render("x"))
	}
	out = append(out, s.Text.Render("x"), s.Muted.Render("x"), s.Card.Render("x"), s.SelectedCard.Render("x"),
		s.Frame.Render("x"), s.Selection.Render("x"))
	for _, o := range out {
		if hasColour(o) {
			t.Errorf("NO_COLOR output %q has a colour sequence", o)
		}
	}
	if coloured := New(true, false).Badge(state.StatusWorking); !hasColour(coloured) {
		t.Fatalf("hasColour misses the colours in %q", coloured)
	}
	if s.Card.Render("x") == s.SelectedCard.Render("x") {
		t.Error("the selected card looks like any other card without colour")
	}
}

func TestDotFrame(t *testing.T) {
	for _, noColor := range []bool{true, false} {
		s := New(true, noColor)
		for _, a := range state.Activities {
			f0, f1, f2 := s.DotFrame(a, 0), s.DotFrame(a, 1), s.DotFrame(a, 2)
			if s.Dot(a) != f0 || f0 != f2 {
				t.Errorf("activity %s: frames 0 and 2 differ from the rest dot", a)
			}
			if animates := f0 != f1; animates != (a == state.ActivityActive) {
				t.Errorf("activity %s: changes with frame = %v; only active breathes", a, animates)
			}
			for _, f := range []string{f0, f1} {
				if w := lipgloss.Width(f); w != 1 {
					t.Errorf("activity %s: dot %q is %d cells", a, f, w)
				}
			}
		}
	}
}

func TestHeaderAndMark(t *testing.T) {
	s := New(false, false)
	if got := ansi.Strip(s.Header(state.ZoneNeedsYou)); got != "◆ Needs you" {
		t.Errorf("Header(needs_you) = %q", got)
	}
	if got := ansi.Strip(s.Mark(state.MarkUnreachable)); got != "↯ unreachable" {
		t.Errorf("Mark(unreachable) = %q", got)
	}
	if fg := s.HeaderStyle(state.ZoneInReview).GetForeground(); theme.Contrast(fg, theme.Light.Color(theme.RoleReview)) != 1 {
		t.Error("in-review header is not the review colour")
	}
}

// hasColour reports whether s holds an SGR colour parameter (30–49, 90–107,
// 38;… or 48;…); bold and other attributes are allowed under NO_COLOR.
func hasColour(s string) bool {
	for _, seq := range strings.Split(s, "\x1b[")[1:] {
		params, _, _ := strings.Cut(seq, "m")
		for _, p := range strings.Split(params, ";") {
			if len(p) >= 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9') || strings.HasPrefix(p, "10") {
				return true
			}
		}
	}
	return false
}
