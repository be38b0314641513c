package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
)

// putStarting writes the record an interrupted `lanes new` leaves behind:
// stored and starting, with no tmux session.
func putStarting(w *world.World, name string) error {
	now := time.Now().UTC()
	r := &state.Record{ID: state.NewID(), Name: name, Agent: state.AgentCustom, Command: []string{"cat"},
		Dir: w.Home, CreatedAt: now,
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: now, Source: "user"},
		Runtime: state.Runtime{Socket: w.Socket, TmuxSession: state.TmuxSessionName(name),
			Launch: state.NewID(), StartingAt: now}}
	return state.NewStore(w.State).Update(func(tx *state.Tx) error { return tx.Put(r) })
}

// drillStarting: a session whose `lanes new` was interrupted before tmux
// showed it reads as starting, and send, attach, restart and new refuse it
// plainly; restart keeps its record; kill ends it (trial item 3).
func drillStarting(w *world.World) (string, error) {
	if err := putStarting(w, "zz"); err != nil {
		return "", err
	}
	ls, err := w.Ls()
	if err != nil {
		return "", err
	}
	if !slices.Contains(ls["zz"].Marks, string(state.MarkStarting)) {
		return "", fmt.Errorf("ls --json marks of a starting session: %v", ls["zz"].Marks)
	}
	row := grepLine(w.Lanes("", "ls").Stdout, "zz")
	evidence := "ls: " + strings.Join(strings.Fields(row), " ")
	for _, args := range [][]string{{"send", "zz", "hi"}, {"attach", "zz"}, {"restart", "zz"}, {"new", "zz", "--", "cat"}} {
		r := w.Lanes("", args...)
		evidence += fmt.Sprintf("\nlanes %s: exit %d: %s", strings.Join(args, " "), r.Code, firstLine(r.Stderr))
		if r.Code != 1 || !strings.Contains(r.Stderr, "still starting") {
			return evidence, fmt.Errorf("lanes %s did not refuse a starting session plainly", args[0])
		}
	}
	if ls, err = w.Ls(); err != nil {
		return evidence, err
	}
	if _, ok := ls["zz"]; !ok {
		return evidence, fmt.Errorf("the record is gone after lanes restart")
	}
	r := w.Lanes("", "kill", "zz")
	evidence += fmt.Sprintf("\nlanes kill zz: exit %d: %s", r.Code, firstLine(r.Stdout+r.Stderr))
	if r.Code != 0 {
		return evidence, fmt.Errorf("kill of a starting session failed")
	}
	return evidence, nil
}

// drillNames: a NAME never reaches another session — a name equal to a
// record's id or starting with lanes- is refused, and a name shaped like
// an id is found by name (trial item 6).
func drillNames(w *world.World) (string, error) {
	if r := w.Lanes("", "new", "c", "--", "sleep", "86400"); r.Code != 0 {
		return "", fmt.Errorf("lanes new c: %s", r.Stderr)
	}
	if r := w.Lanes("", "new", "frontend", "--", "sleep", "86400"); r.Code != 0 {
		return "", fmt.Errorf("lanes new frontend: %s", r.Stderr)
	}
	ls, err := w.Ls()
	if err != nil {
		return "", err
	}
	var evidence string
	for _, name := range []string{ls["c"].ID, "lanes-c"} {
		r := w.Lanes("", "new", name, "--", "cat")
		evidence += fmt.Sprintf("lanes new %s: exit %d: %s\n", name, r.Code, firstLine(r.Stderr))
		if r.Code == 0 {
			return evidence, fmt.Errorf("lanes new %s was accepted", name)
		}
	}
	r := w.Lanes("", "hook", "generic", "active", "--session", "frontend")
	if ls, err = w.Ls(); err != nil {
		return evidence, err
	}
	evidence += fmt.Sprintf("hook --session frontend (an id's shape): exit %d, frontend is %s, c is %s",
		r.Code, ls["frontend"].Activity, ls["c"].Activity)
	if r.Code != 0 || ls["frontend"].Activity != "active" {
		return evidence, fmt.Errorf("a hook for frontend did not reach the session named frontend")
	}
	return evidence, nil
}
