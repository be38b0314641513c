package cli

import (
	"strings"
	"testing"

	"lanes/state"
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
	// "frontend" has an id's shape; its hooks must reach it by name.
	e.must("new", "frontend", "--", "sleep", "600")
	e.must("hook", "generic", "active", "--session", "frontend")
	if s := e.ls()["frontend"]; s.Activity != state.ActivityActive {
		t.Errorf("hook --session frontend did not reach the session named frontend: %+v", s)
	}
}
