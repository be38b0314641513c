package agent

import (
	"slices"
	"testing"

	"lanes/state"
)

// Every agent lanes reads is one it drives, and the other way round: a
// new agent is described in both packages or in neither.
func TestDriversMatchReadings(t *testing.T) {
	var driven []state.Agent
	for _, d := range drivers {
		driven = append(driven, d.Agent)
		if d.Binary == "" || d.launch == nil || d.readDialog == nil || d.callText == nil || (d.hooks == nil) == (d.plugin == nil) || (d.hooks != nil) != (d.handler != nil) {
			t.Errorf("%s: its description misses a part: %+v", d.Agent, d)
		}
	}
	if got, want := driven, state.CodingAgents(); !slices.Equal(got, want) {
		t.Errorf("agents driven %v, agents read %v: want the same, in the same order", got, want)
	}
}
