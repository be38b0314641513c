package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// A menu or picker the user left open fires no hook; the witness finds it
// on every recorded menu screen (the sixth hostile re-run: OpenCode's
// /models took send's text and switched the model), and on none where
// the agent waits at its prompt, works, or was refused.
func TestInMenuOnRecordedScreens(t *testing.T) {
	menus, _ := filepath.Glob(filepath.Join(statetest.RealDir, "menus", "*.screen"))
	if len(menus) < 10 {
		t.Fatalf("%d menu screens", len(menus))
	}
	for _, f := range menus {
		name, _, _ := strings.Cut(filepath.Base(f), "-")
		if !state.InMenu(state.Agent(name), state.Screen(readScreen(t, f))) {
			t.Errorf("%s: no menu seen", f)
		}
	}
	for _, a := range state.CodingAgents() { // the harness's menu scenario
		f := filepath.Join(statetest.RealDir, "harness", string(a), "menu", "menu.screen")
		if !state.InMenu(a, state.Screen(readScreen(t, f))) {
			t.Errorf("%s: no menu seen", f)
		}
	}
	for _, a := range state.CodingAgents() {
		files, _ := filepath.Glob(filepath.Join(statetest.RealDir, string(a), "*", "*.screen"))
		more, _ := filepath.Glob(filepath.Join(statetest.RealDir, "harness", string(a), "*", "*.screen"))
		n := 0
		for _, f := range append(files, more...) {
			switch strings.TrimSuffix(filepath.Base(f), ".screen") {
			case "idle", "ready", "busy", "running", "rejected", "interrupted", "failed", "idle-background", "compacted":
				n++
				if state.InMenu(a, state.Screen(readScreen(t, f))) {
					t.Errorf("%s: a menu seen on %s's screen of no menu", f, a)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no recorded screen of no menu", a)
		}
	}
}

func readScreen(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A menu opened at the prompt fires no hook: once the pane's output
// settles the witness looks, the card is marked "in a menu" and send
// refuses; once it closes (the pane draws again) the mark goes. The
// screens are the real agents' (a session list each).
func TestWitnessSeesAMenu(t *testing.T) {
	for ag, menu := range map[state.Agent]string{state.AgentClaude: "claude-resume", state.AgentCodex: "codex-resume",
		state.AgentGemini: "gemini-resume", state.AgentOpenCode: "opencode-sessions"} {
		t.Run(string(ag), func(t *testing.T) {
			ls := statetest.RealLines(t, "harness/"+string(ag), "tool")
			r := statetest.Replay(t, statetest.RealRecord(ag), ls)
			r.Pane.PID = 100
			clk := &clock{t: ls[len(ls)-1].At.Add(time.Second)}
			f := &fakePanes{screens: map[string]string{}}
			col := &Collector{Store: New(filepath.Join(t.TempDir(), "state")), Panes: f, Now: clk.now}
			put(t, col.Store, r)
			w := &witnessRig{t: t, col: col, panes: f, clk: clk, id: r.ID}
			show := func(screen string) {
				f.screens["%1"] = screen
				f.obs = []state.Observation{{LanesID: r.ID, SessionID: "$1", PaneID: "%1", PID: 100, WindowActivity: clk.t.Truncate(time.Second)}}
			}
			show(statetest.RealScreen(t, "harness/"+string(ag), "tool", "idle"))
			if _, got := w.until(5*time.Second, false, func(*state.Record) bool { return false }); got.Activity.Menu || got.Activity.State != state.ActivityIdle {
				t.Fatalf("at its prompt: menu %v activity %s", got.Activity.Menu, got.Activity.State)
			}
			show(readScreen(t, filepath.Join(statetest.RealDir, "menus", menu+".screen")))
			took, got := w.until(5*time.Second, false, func(r *state.Record) bool { return r.Activity.Menu })
			if took < 0 || took > 4*time.Second {
				t.Fatalf("menu open: seen after %v", took)
			}
			if d := state.Derive(got, clk.t); d.Status != state.StatusIdle || !slices.Contains(d.Marks, state.MarkMenu) || !errors.Is(state.CanSend(got, false), state.ErrInMenu) || state.CanSend(got, true) != nil {
				t.Errorf("menu open: status %s marks %v send %v", d.Status, d.Marks, state.CanSend(got, false))
			}
			show(statetest.RealScreen(t, "harness/"+string(ag), "tool", "idle"))
			if took, _ := w.until(5*time.Second, false, func(r *state.Record) bool { return !r.Activity.Menu }); took < 0 || took > 4*time.Second {
				t.Fatalf("menu closed: seen after %v", took)
			}
		})
	}
}
