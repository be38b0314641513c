package state

import (
	"errors"
	"strings"
	"testing"
)

// A name with an id's shape is refused for a new session, with another
// name to choose (issue 15: ids and names must not be confused).
func TestCheckNameRefusesIDShape(t *testing.T) {
	err := CheckName("frontend")
	if err == nil || !strings.Contains(err.Error(), "looks like a session id") || !strings.Contains(err.Error(), "frontend-1") {
		t.Errorf("CheckName(frontend) = %v, want a refusal suggesting frontend-1", err)
	}
	for _, ok := range []string{"Frontend", "front", "frontend2x", "front-nd"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", ok, err)
		}
	}
}

// ResolveOne does not pick among records sharing a name: it lists each
// with its id, status and dir, and an id still names one.
func TestResolveOneSharedName(t *testing.T) {
	live := rec(ActivityIdle)
	live.ID, live.Name, live.Dir = "live0001", "api", "/src/api"
	dead := terminated(rec(ActivityIdle))
	dead.ID, dead.Name, dead.Dir = "dead0001", "api", "/src/old"
	all := []*Record{dead, live}
	_, err := ResolveOne(all, "api")
	if !errors.Is(err, ErrSharedName) {
		t.Fatalf("ResolveOne(api) = %v, want ErrSharedName", err)
	}
	for _, want := range []string{"live0001", "dead0001", "/src/api", "/src/old", "live", "terminated"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
	if r, err := ResolveOne(all, "dead0001"); err != nil || r.ID != "dead0001" {
		t.Errorf("ResolveOne(dead0001) = %v, %v", r, err)
	}
	if r, err := ResolveOne([]*Record{live}, "api"); err != nil || r.ID != "live0001" {
		t.Errorf("ResolveOne(api) alone = %v, %v", r, err)
	}
}
