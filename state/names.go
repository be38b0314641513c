package state

import (
	"fmt"
	"slices"
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
