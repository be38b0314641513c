package state

import (
	"errors"
	"strings"
	"testing"
)

// A name with an id's shape (frontend, database) is a name like any other,
// yet never means two sessions: one equal to another record's id is
// refused, a fresh id is never a record's name, and a NAME is looked up
// as a name first.
func TestIDShapedNamesNeverMeanTwoSessions(t *testing.T) {
	for _, ok := range []string{"frontend", "database", "Frontend", "front-nd"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", ok, err)
		}
	}
	api := rec(ActivityIdle)
	api.ID, api.Name = "frontend", "api"
	if err := NameTaken([]*Record{api}, "frontend"); err == nil || !strings.Contains(err.Error(), "is the id of session api") {
		t.Errorf("a name equal to another record's id: %v", err)
	}
	front := rec(ActivityIdle)
	front.ID, front.Name = "k3v9x2ab", "frontend"
	ids := []string{"frontend", "k3v9x2ab", "zz000001"}
	if got := freshID([]*Record{front}, func() string { id := ids[0]; ids = ids[1:]; return id }); got != "zz000001" {
		t.Errorf("freshID gave %q: a record's name or id", got)
	}
	other := rec(ActivityIdle)
	other.ID, other.Name = "abcdefgh", "web"
	if r, err := Resolve([]*Record{other, front}, "frontend"); err != nil || r != front {
		t.Errorf("Resolve(frontend) = %v, %v: want the session named frontend", r, err)
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
