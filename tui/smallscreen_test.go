package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// On a phone's screen (45×20, 60×20) every key is reachable from ?: tab
// turns pages, each within the screen; the key line keeps "? help"; the
// new and send dialogs keep both borders.
func TestSmallScreens(t *testing.T) {
	for _, sz := range [][2]int{{45, 20}, {60, 20}} {
		m := loaded(fixture(), ThemeDark, sz[0], sz[1])
		if line := ansi.Strip(m.bottomLine()); !strings.HasSuffix(line, "? help") {
			t.Errorf("%dx%d: key line %q lacks ? help", sz[0], sz[1], line)
		}
		m = press(m, "?")
		seen := ""
		for range len(m.helpPages()) {
			view := m.View().Content
			checkFrame(t, view, sz[0], sz[1])
			if !strings.Contains(ansi.Strip(view), "other keys close") {
				t.Errorf("%dx%d: a help page lost its hint:\n%s", sz[0], sz[1], ansi.Strip(view))
			}
			seen += strings.Join(strings.Fields(ansi.Strip(view)), " ")
			m = press(m, "tab")
		}
		for _, col := range m.keys.fullHelp(situation{}) {
			for _, b := range col {
				if !strings.Contains(seen, b.Help().Key+" "+b.Help().Desc) {
					t.Errorf("%dx%d: no help page shows %q", sz[0], sz[1], b.Help().Key+" "+b.Help().Desc)
				}
			}
		}
		m = press(m, "esc")
		for k, title := range map[string]string{"n": "New session", "s": "Send to api"} {
			view := ansi.Strip(press(m, k).View().Content)
			if !regexp.MustCompile(`┃ +` + title + ` +┃`).MatchString(view) {
				t.Errorf("%dx%d: the %s dialog lost a border:\n%s", sz[0], sz[1], title, view)
			}
		}
	}
}
