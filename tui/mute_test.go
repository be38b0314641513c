package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"

	"github.com/charmbracelet/x/ansi"
)

// TestFlowMute: m on a card stores the mute through Actions and says so; a
// second m on a muted card unmutes it.
func TestFlowMute(t *testing.T) {
	f := startFlow(t, 160, 48)
	f.waitText("┃ ● api")
	f.keys("m")
	f.waitText("muted api")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"mute api true"}) {
		t.Errorf("actions = %q, want the mute of api", got)
	}

	recs := fixture()
	recs[0].Muted = true // api
	f = startFlow(t, 160, 48)
	f.cycler.mu.Lock()
	f.cycler.recs = recs
	f.cycler.mu.Unlock()
	f.wait("api's muted mark", func(v string) bool { return strings.Contains(v, "● api ∅") })
	f.keys("m")
	f.waitText("unmuted api")
	f.final()
	if got := f.acts.called(); !slices.Equal(got, []string{"mute api false"}) {
		t.Errorf("actions = %q, want the unmute of api", got)
	}
}

// TestMutedCardKeepsItsWidth: the mark takes two cells of the name's room,
// at every card width, and the legend names it.
func TestMutedCardKeepsItsWidth(t *testing.T) {
	m := loaded(fixture(), ThemeDark, 160, 48)
	r := rec("a1000009", "a-very-long-session-name-to-cut", state.ActivityActive, time.Minute)
	r.Muted = true
	it := &item{Derived: state.DeriveAt(r, fixedNow)}
	for w := 12; w <= 60; w++ {
		c := renderCard(m.look, it, w, false, fixedNow, 0)
		for i, line := range c {
			if got := ansi.StringWidth(line); got != w {
				t.Fatalf("card %d wide: line %d is %d cells: %q", w, i, got, ansi.Strip(line))
			}
		}
		if w >= 20 && !strings.Contains(ansi.Strip(c[1]), "∅") {
			t.Errorf("card %d wide shows no muted mark: %q", w, ansi.Strip(c[1]))
		}
	}
	m.push(helpView{})
	m.w, m.h = 80, 24
	if l := ansi.Strip(m.legend()); !strings.Contains(l, "∅ muted") {
		t.Errorf("legend lacks the muted mark:\n%s", l)
	}
}
