package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A message wider than the screen takes rows of its own above the bottom
// line while it lasts: the body gives them up, so the diff's bottom border
// and a dialog's stay in sight (a new-user trial: the
// message covered them).
func TestLongMessageHidesNothing(t *testing.T) {
	const long = "can't send to quitter: agent exited — its pane is dead (exit 3); restart it with `lanes restart quitter`"
	for _, c := range []struct {
		name string
		keys []string
		kept func(before []string) string
	}{
		{"diff", []string{"D"}, func(b []string) string { return b[len(b)-2] }}, // its bottom border
		{"dialog", []string{"x"}, func(b []string) string { // its bottom border
			return regexp.MustCompile(`━+┛`).FindString(strings.Join(b, "\n"))
		}},
	} {
		m := loaded(fixture(), ThemeDark, 80, 24)
		m = press(m, c.keys...)
		before := strings.Split(ansi.Strip(m.View().Content), "\n")
		want := c.kept(before)
		m.flash(long, true)
		out := m.View().Content
		checkFrame(t, out, 80, 24)
		after := strings.Split(ansi.Strip(out), "\n")
		if msg := strings.Join(after[len(after)-2:], " "); !strings.Contains(msg, "lanes restart quitter") || !strings.HasPrefix(msg, "✗ can't send") {
			t.Errorf("%s: the message's rows read %q", c.name, msg)
		}
		if !strings.Contains(strings.Join(after[:len(after)-2], "\n"), strings.TrimSpace(want)) {
			t.Errorf("%s: %q is hidden while the message shows:\n%s", c.name, want, strings.Join(after, "\n"))
		}
	}
}

// While `?` shows, the bottom line says what its keys do, not the board's
// (a new-user trial: it offered enter attach, x kill… which only close it).
func TestHelpKeyLine(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {45, 20}} {
		m := press(loaded(fixture(), ThemeDark, sz.w, sz.h), "?")
		lines := strings.Split(ansi.Strip(m.View().Content), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "tab next page") || strings.Contains(last, "attach") {
			t.Errorf("%d×%d: help's key line %q", sz.w, sz.h, last)
		}
	}
}

// On the idle stack's head the key line offers what works there: enter
// opens or closes it (a new-user trial: it offered s send and x kill,
// which say "select a session first").
func TestIdleHeadKeyLine(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	for range 5 {
		if !m.board.onIdleHead() {
			m = press(m, "j")
		}
	}
	if !m.board.onIdleHead() {
		t.Fatal("j never reached the idle stack's head")
	}
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "enter open, close") || strings.Contains(last, "send") {
		t.Errorf("the idle head's key line %q", last)
	}
}

// A dialog opened while a message shows has its own keys on the bottom
// line at once (a new-user trial: the message stood over Kill api?'s
// y yes • n/esc no until it passed).
func TestDialogKeysReplaceAMessage(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 80, 24)
	m.flash("can't send to quitter: agent exited", true)
	m = press(m, "x")
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "y yes") || strings.Contains(last, "quitter") {
		t.Errorf("Kill's key line %q", last)
	}
}
