package state

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// NameTaken explains why a new session may not take name among all
// records: a live session has it (one still starting, say so), or it is a
// record's id — then `lanes send NAME` and hooks' --session would find
// the wrong session (docs/design.md §2).
func NameTaken(all []*Record, name string) error {
	for _, o := range all {
		switch {
		case o.ID == name:
			return fmt.Errorf("%q is the id of session %s; pick another name", name, o.Name)
		case o.Name != name || !o.Live():
		case o.Starting():
			return fmt.Errorf("a session named %q is %w (%s); wait a moment, or `lanes kill %s`", name, ErrStarting, o.ID, name)
		default:
			return fmt.Errorf("a live session named %q exists (%s); pick another name or `lanes kill %s`", name, o.ID, name)
		}
	}
	return nil
}

// FreshID is a new id that is no record's id and no record's name, so a
// NAME given to a command never means two sessions.
func FreshID(all []*Record) string { return freshID(all, NewID) }

func freshID(all []*Record, gen func() string) string {
	for {
		id := gen()
		if !slices.ContainsFunc(all, func(r *Record) bool { return r.ID == id || r.Name == id }) {
			return id
		}
	}
}

// ErrSharedName is a name several records have, given to a command that
// must not pick one of them.
var ErrSharedName = errors.New("more than one session has this name")

// ResolveOne is Resolve for a command that must not pick among records
// sharing a name (rm: a terminated record and a live session, or two
// terminated ones): such a name is refused with each record's id, status
// and dir, so the user names one by id.
func ResolveOne(all []*Record, nameOrID string) (*Record, error) {
	var same []*Record
	for _, r := range all {
		if r.ID == nameOrID {
			return r, nil
		}
		if r.Name == nameOrID {
			same = append(same, r)
		}
	}
	if len(same) < 2 {
		return Resolve(all, nameOrID)
	}
	lines := make([]string, len(same))
	for i, r := range same {
		status := "live"
		switch {
		case r.Runtime.Terminated:
			status = "terminated (" + r.Runtime.TerminatedReason + ")"
		case r.Starting():
			status = "starting"
		}
		lines[i] = fmt.Sprintf("  %s  %s  %s", r.ID, status, r.Dir)
	}
	return nil, fmt.Errorf("%q: %w; name one by its id:\n%s", nameOrID, ErrSharedName, strings.Join(lines, "\n"))
}
