package cli

import (
	"strings"
	"testing"
)

// A NAME never means two sessions: a new name may not be a record's id nor
// start with lanes-, and a name that looks like an id is still found by
// name (trial item 6).
func TestNamesNeverPointElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "c", "--", "sleep", "600")
	id := e.ls()["c"].ID
	if _, errs, code := e.run("new", id, "--", "cat"); code == exitOK || !strings.Contains(errs, "is the id of session c") {
		t.Errorf("lanes new %s (c's id): exit %d, %q", id, code, errs)
	}
	if _, errs, code := e.run("new", "lanes-c", "--", "cat"); code == exitOK || !strings.Contains(errs, "lanes-NAME") {
		t.Errorf("lanes new lanes-c: exit %d, %q", code, errs)
	}
	// "frontend" has an id's shape, and is a name like any other: found by
	// name, never taken for an id.
	e.must("new", "frontend", "--", "sleep", "600")
	e.must("hook", "generic", "waiting_input", "--session", "frontend")
	if s := e.ls()["frontend"]; s.Status != "needs_input" || s.ID == "frontend" {
		t.Errorf("frontend after its hook: %s (id %s)", s.Status, s.ID)
	}
	e.must("kill", "frontend")
	if s := e.ls()["frontend"]; !s.IsTerminated {
		t.Errorf("lanes kill frontend did not reach the session named frontend")
	}
}

// rm NAME, when a terminated record and a live session share the name,
// names neither: it lists both with the id to use for each.
func TestRmSharedNameListsIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "api", "--", "sleep", "600")
	old := e.ls()["api"].ID
	e.must("kill", "api")
	cur := strings.Fields(e.must("new", "api", "--", "sleep", "600"))[1]
	_, errs, code := e.run("rm", "api")
	if code == exitOK {
		t.Fatalf("rm api with two records named api: exit 0")
	}
	for _, want := range []string{old, cur, "terminated", "live", "by its id"} {
		if !strings.Contains(errs, want) {
			t.Errorf("rm api does not say %q:\n%s", want, errs)
		}
	}
	e.must("rm", old)
	if _, errs, code := e.run("rm", "api"); code == exitOK || !strings.Contains(errs, "kill api") {
		t.Errorf("rm api with only the live one left: exit %d, %q", code, errs)
	}
}
