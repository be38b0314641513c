package state

import (
	"strings"
	"testing"
)

// A name is resolved before an id: `lanes send X` with X both a live
// session's name and another's id goes to the one named X (trial item 6).
func TestResolveNameBeforeID(t *testing.T) {
	c := rec(ActivityIdle)
	c.ID, c.Name = "obwu68qe", "c"
	named := rec(ActivityIdle)
	named.ID, named.Name = "zzzz0000", "obwu68qe"
	if r, _ := Resolve([]*Record{c, named}, "obwu68qe"); r.ID != "zzzz0000" {
		t.Errorf("resolved %s (%s), want the session named obwu68qe", r.ID, r.Name)
	}
	// The id comes before a terminated session of that name.
	dead := terminated(rec(ActivityIdle))
	dead.ID, dead.Name = "dead0001", "obwu68qe"
	if r, _ := Resolve([]*Record{dead, c}, "obwu68qe"); r.ID != "obwu68qe" {
		t.Errorf("resolved %s (%s), want the live session with that id", r.ID, r.Name)
	}
	if r, _ := Resolve([]*Record{dead}, "obwu68qe"); r == nil || r.ID != "dead0001" {
		t.Errorf("a terminated session's name no longer resolves: %v", r)
	}
}

// tmux names a session lanes-NAME, so a name of that shape would let
// '#{session_name}' point at another session.
func TestNameProblemLanesPrefix(t *testing.T) {
	for _, s := range []string{"lanes-c", "lanes-"} {
		if p := NameProblem(s); !strings.Contains(p, "lanes-") {
			t.Errorf("NameProblem(%q) = %q, want a refusal naming the lanes- prefix", s, p)
		}
		if err := CheckName(s); err == nil || !strings.Contains(err.Error(), "lanes-NAME") {
			t.Errorf("CheckName(%q) = %v", s, err)
		}
	}
	if NameProblem("lanes") != "" || NameProblem("mylanes-x") != "" {
		t.Error("lanes without the dash, or not at the start, is a fine name")
	}
}

func TestNameTakenAndFreshID(t *testing.T) {
	c := rec(ActivityIdle)
	c.ID, c.Name = "obwu68qe", "c"
	starting := rec(ActivityIdle)
	starting.ID, starting.Name = "strt0001", "s"
	starting.Runtime.SessionID, starting.Runtime.StartingAt = "", t0
	dead := terminated(rec(ActivityIdle))
	dead.ID, dead.Name = "dead0001", "d"
	all := []*Record{c, starting, dead}
	for name, want := range map[string]string{
		"c": "a live session", "obwu68qe": "is the id of session c", "s": "still starting",
		"d": "", "dead0001": "is the id of session d", "new": "",
	} {
		err := NameTaken(all, name)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("NameTaken(%q) = %v, want %q", name, err, want)
		}
	}
	// An id is never an existing name: with every id but one taken as a
	// name, FreshID still avoids them.
	seq := []string{"c", "obwu68qe", "s", "fresh001"}
	gen := func() string { id := seq[0]; seq = seq[1:]; return id }
	if id := freshID(all, gen); id != "fresh001" {
		t.Errorf("FreshID = %q, want one that is neither a name nor an id", id)
	}
}
