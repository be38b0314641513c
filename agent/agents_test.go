package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

// Every agent lanes reads is one it drives, and the other way round: a
// new agent is described in both packages or in neither.
func TestDriversMatchReadings(t *testing.T) {
	var driven []state.Agent
	for _, d := range drivers {
		driven = append(driven, d.Agent)
		asks := len(d.keys.Yes) > 0 // pi asks nothing
		if d.Binary == "" || d.launch == nil || (d.readDialog != nil) != asks || (d.callText != nil) != asks ||
			(d.hooks == nil) == (d.plugin == nil) || (d.hooks != nil) != (d.handler != nil) {
			t.Errorf("%s: its description misses a part: %+v", d.Agent, d)
		}
	}
	if got, want := driven, state.CodingAgents(); !slices.Equal(got, want) {
		t.Errorf("agents driven %v, agents read %v: want the same, in the same order", got, want)
	}
}

// send types into a pane only where no dialog shows: ShowsDialog finds
// one on every recorded screen of a dialog or a question, and on none
// where the agent waits at its prompt or works.
func TestShowsDialogOnRecordedScreens(t *testing.T) {
	for _, d := range drivers {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "real", string(d.Agent), "*", "*.screen"))
		more, _ := filepath.Glob(filepath.Join("..", "testdata", "real", "harness", string(d.Agent), "*", "*.screen"))
		for _, f := range append(files, more...) {
			step := strings.TrimSuffix(filepath.Base(f), ".screen")
			var want bool
			switch step {
			case "dialog", "question":
				want = true
			case "idle", "ready", "busy", "running":
			default:
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := ShowsDialog(d.Agent, string(b)); got != want {
				t.Errorf("%s: ShowsDialog = %v, want %v", f, got, want)
			}
		}
	}
}
