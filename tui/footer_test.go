package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// selectName puts the selection on the card of the session named name.
func selectName(t *testing.T, m Model, name string) Model {
	t.Helper()
	b := &m.board
	for li, l := range b.lanes {
		for ri, r := range l.rows {
			if r.it != nil && r.it.Rec.Name == name {
				b.lane, b.row, b.selKey = li, ri, r.key()
				return m
			}
		}
	}
	t.Fatalf("no card named %s on the board", name)
	return m
}

// The key line shows the keys that act on the selected card: no attach,
// send or kill on a terminated one, but remove and (where it applies)
// restore; restart and remove (one step) on an exited agent. (A dialog card's y/n/a line:
// TestFlowAnswerFromTheBoard.)
func TestFooterFollowsTheSelection(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	for _, c := range []struct {
		name      string
		want, not []string
	}{
		{"api", []string{"enter attach", "s send", "x kill", "/ filter", "? help"}, []string{"R restore", "r restart"}},
		{"crash", []string{"r restart", "d remove", "enter attach"}, []string{"s send"}},
		{"old", []string{"d remove", "R restore", "? help"}, []string{"enter attach", "s send", "x kill", "r restart"}},
		{"shipped", []string{"d clean up", "o open PR"}, []string{"enter attach", "s send", "x kill", "R restore"}},
		{"landed", []string{"d clean up", "o open PR"}, []string{"s send", "x kill"}},
	} {
		line := ansi.Strip(selectName(t, m, c.name).bottomLine())
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: key line %q lacks %q", c.name, line, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(line, n) {
				t.Errorf("%s: key line %q offers %q", c.name, line, n)
			}
		}
	}
	// One line, never wider than the terminal.
	for _, w := range []int{20, 33, 50, 80} {
		n := step(m, tea.WindowSizeMsg{Width: w, Height: 24})
		for _, name := range []string{"api", "crash", "old", "shipped"} {
			line := selectName(t, n, name).bottomLine()
			if strings.Contains(line, "\n") || ansi.StringWidth(line) > w {
				t.Errorf("%s at %d columns: key line %q", name, w, ansi.Strip(line))
			}
		}
	}
}

// Keeping a filter with enter puts the selection on the first card that
// matches, not on the idle stack's header, so P or enter act at once.
func TestFilterEnterSelectsAMatch(t *testing.T) {
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		m := loaded(fixture(), ThemeDark, size[0], size[1]) // api, Working's first card, selected
		m = press(m, "/", "d", "o", "c", "s", "enter")
		if got := selectedName(m); got != "docs" {
			t.Errorf("%dx%d: after / docs enter the selection is %q (idle header %v), want docs", size[0], size[1], got, m.board.onIdleHead())
		}
	}
}

// d on a card whose agent exited in its pane asks once and says its tmux
// session closes: no kill first. On one whose agent runs it still says
// kill first.
func TestRemoveAnExitedCardInOneStep(t *testing.T) {
	m := selectName(t, loaded(fixture(), ThemeDark, 160, 48), "crash")
	m = press(m, "d")
	if !topIs[confirmDialog](&m) || !strings.Contains(ansi.Strip(m.render()), "Its agent exited: its tmux session closes.") {
		t.Errorf("d on an exited agent's card: mode %T, status %q, want the confirm saying its session closes", m.top(), m.status.text)
	}
	m = selectName(t, loaded(fixture(), ThemeDark, 160, 48), "api")
	if m = press(m, "d"); topIs[confirmDialog](&m) || !strings.Contains(m.status.text, "kill it (x) before removing it") {
		t.Errorf("d on a running agent's card: mode %T, status %q, want kill first", m.top(), m.status.text)
	}
}
