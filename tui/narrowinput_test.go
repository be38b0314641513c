package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The send and new-session dialogs' fields scroll sideways on one row at
// any width: a long prompt typed at 45 columns never spills onto the next
// row (a new-user trial: they wrapped below 56 columns).
func TestNarrowInputsScroll(t *testing.T) {
	const typed = "a long prompt that will not fit in forty five columns"
	for _, w := range []int{45, 50, 55, 56, 80} {
		for _, c := range []struct{ open, field, row string }{{"s", "", "› "}, {"n", "tab tab tab tab", "args  "}} {
			m := loaded(fixture(), ThemeDark, w, 24)
			m = press(m, c.open)
			if c.field != "" {
				m = press(m, strings.Fields(c.field)...)
			}
			for _, r := range typed {
				m = press(m, string(r))
			}
			out := ansi.Strip(m.View().Content)
			if !strings.Contains(out, "columns ") && !strings.Contains(out, "columns┃") {
				t.Errorf("%s at %d columns: the end of what was typed is not on screen:\n%s", c.open, w, out)
			}
			for _, l := range strings.Split(out, "\n") {
				if i := strings.Index(l, c.row); i >= 0 && strings.Contains(l, "┃") && !strings.Contains(l[i:], "columns") {
					t.Errorf("%s at %d columns: the field's row does not end with what was typed: %q", c.open, w, l)
				}
			}
		}
	}
}
