package state

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
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

// ValidName reports whether s is an acceptable session name:
// [a-zA-Z0-9_-]{1,40}.
func ValidName(s string) bool { return NameProblem(s) == "" }

// NameProblem says briefly what is wrong with a session name, short enough
// for a dialog line; "" when nothing is. (Hand-written rather than a
// regexp: this package is linked into the hook path, where package init
// time counts.)
func NameProblem(s string) string {
	if len(s) > 40 {
		return "at most 40 characters"
	}
	for _, r := range s {
		if r > 127 || !isLower(byte(r)) && !isDigit(byte(r)) && !(r >= 'A' && r <= 'Z') && r != '_' && r != '-' {
			return "invalid character " + strconv.Quote(string(r)) + " — use letters, digits, - or _"
		}
	}
	if s == "" {
		return "use 1–40 letters, digits, - or _"
	}
	if strings.HasPrefix(s, "lanes-") {
		return "must not start with lanes- (tmux names it lanes-NAME already)"
	}
	return ""
}

// ValidID reports whether s has the shape of a session id: [a-z0-9]{8}.
func ValidID(s string) bool {
	if len(s) != 8 {
		return false
	}
	for _, c := range []byte(s) {
		if !isLower(c) && !isDigit(c) {
			return false
		}
	}
	return true
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// CheckName explains why s is not an acceptable session name.
func CheckName(s string) error {
	// A name may have an id's shape (frontend): NameTaken refuses another
	// record's id, FreshID never makes an id some record has as its name,
	// and a NAME is looked up as a name first, so it never means two
	// sessions.
	switch p := NameProblem(s); {
	case p == "":
		return nil
	case strings.HasPrefix(s, "lanes-"):
		return fmt.Errorf("invalid session name %q: it %s, and its status line would find the session named %s", s, p, strings.TrimPrefix(s, "lanes-"))
	}
	return fmt.Errorf("invalid session name %q: use 1–40 letters, digits, '-' or '_' (tmux rewrites '.' and ':', and spaces break targets)", s)
}

// NewID returns a fresh random id of 8 characters from [a-z0-9]. It needs
// to be unique, not secret (the state directory is the user's alone), so
// it takes the runtime's generator: crypto/rand would bring the whole
// crypto tree's initialisation into every hook's start-up.
func NewID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 8)
	for i := range b {
		b[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(b)
}

// TmuxSessionName is the tmux session name for a lanes session name.
func TmuxSessionName(name string) string { return "lanes-" + name }

// Resolve picks nameOrID out of records as Tx.Resolve does.
func Resolve(all []*Record, nameOrID string) (*Record, error) {
	var best, byID *Record
	for _, r := range all {
		if r.ID == nameOrID {
			byID = r
		}
		if r.Name != nameOrID {
			continue
		}
		switch {
		case best == nil, r.Live() && !best.Live():
			best = r
		case r.Live() == best.Live() && r.Runtime.TerminatedAt.After(best.Runtime.TerminatedAt):
			best = r
		}
	}
	switch {
	case best != nil && best.Live(), byID == nil && best != nil:
		return best, nil
	case byID != nil:
		return byID, nil
	}
	return nil, fmt.Errorf("%w: %q (see `lanes ls --all`)", ErrNoSession, nameOrID)
}

// ErrNoSession: no record matches the given name or id.
var ErrNoSession = errors.New("no such session")
