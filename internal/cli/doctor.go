package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"

	"lanes/agent"
	"lanes/internal/fsafe"
	"lanes/state"
	"lanes/state/store"
)

// check is one line of the doctor's report; fix is the command that mends a
// problem ("" when healthy).
type check struct {
	ok        bool
	what, fix string
}

func (a *app) cmdDoctor(ctx context.Context, args []string) int {
	fs := a.flags("doctor")
	repair := fs.Bool("repair", false, "replace a damaged store with one holding every readable record (the damaged file is kept aside), and remove worktrees under lanes' roots that no session owns and nothing is checked out in")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "doctor takes no arguments")
	}
	if *repair && !a.doctorRepair(ctx) {
		return exitError
	}
	if *repair {
		if st, err := a.store(); err == nil {
			var recs []*state.Record
			if st.View(func(tx *store.Tx) error { var err error; recs, err = tx.All(); return err }) == nil {
				a.repairWorktrees(ctx, recs)
			}
		}
	}
	var checks []check
	add := func(ok bool, fix, format string, args ...any) {
		// Paths, branches and other programs' words are in it: printable.
		checks = append(checks, check{ok, state.CleanLines(fmt.Sprintf(format, args...)), state.CleanLines(fix)})
	}
	// The cycle makes what follows current (its store errors show below),
	// and its tmux read is the one the tmux checks report on.
	res, cycleErr := a.quietCycle(ctx)
	a.doctorTmux(ctx, res, cycleErr, add)
	a.doctorPassthrough(ctx, add)
	dir, err := a.stateDir()
	switch {
	case errors.Is(err, fsafe.ErrForeign):
		add(false, "", "%v", err) // says whose it is and what to do
	case err != nil:
		add(false, "export LANES_STATE_DIR=…", "state dir: %v", err)
	default:
		a.doctorState(dir, add)
	}
	a.doctorHooks(dir, add)
	a.doctorBoard(add)
	a.doctorConfig(add)
	a.doctorHosts(ctx, add)
	a.doctorPRs(ctx, add)

	bad := 0
	for _, c := range checks {
		mark := "ok "
		if !c.ok {
			mark, bad = "!! ", bad+1
		}
		fmt.Fprintf(a.stdout, "%s %s\n", mark, c.what)
		if !c.ok && c.fix != "" {
			fmt.Fprintf(a.stdout, "    fix: %s\n", c.fix)
		}
	}
	if bad > 0 {
		fmt.Fprintf(a.stdout, "\n%d problem(s) found\n", bad)
		return exitError
	}
	fmt.Fprintln(a.stdout, "\nall good")
	return exitOK
}

type addFunc func(ok bool, fix, format string, args ...any)

// doctorBoard: `lanes` with no command needs lanes-board.
func (a *app) doctorBoard(add addFunc) {
	if a.board != nil {
		add(true, "", "board: built in (%s)", boardName)
		return
	}
	if path, err := findBoard(); err != nil {
		add(false, buildBoth, "board: %s not found next to lanes or on PATH", boardName)
	} else {
		add(true, "", "board: %s", path)
	}
}

func (a *app) doctorState(dir string, add addFunc) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		add(true, "", "state dir %s: not created yet", dir)
		return
	case err != nil:
		add(false, "", "state dir %s: %v", dir, err)
		return
	}
	private := fi.Mode().Perm()&0o077 == 0
	why := ""
	if !private {
		// lanes uses it (it refuses only one others can change), but
		// others can read what the cards say: tool inputs, questions,
		// the agents' last messages.
		why = ": other users can read your sessions' tool inputs and messages"
	}
	add(private, "chmod 700 "+dir, "state dir %s (owner %s, mode %04o)%s", dir, fsafe.Name(fsafe.Owner(fi)), fi.Mode().Perm(), why)
	doctorDisk(dir, add)

	st := store.New(dir)
	var recs []*state.Record
	var counters map[string]int
	var schema int
	var size int64
	err = st.View(func(tx *store.Tx) error {
		var err error
		recs, err = tx.All()
		if err != nil {
			return err
		}
		counters, err = tx.Counters()
		schema, size = tx.Schema(), tx.Size()
		return err
	})
	if !errors.Is(err, store.ErrBusy) {
		// Check says what a failed read was: damage (a record that
		// does not decode), a newer lanes, or nothing it can see.
		if cerr := st.Check(); cerr != nil || err == nil {
			err = cerr
		}
	}
	switch {
	case errors.Is(err, store.ErrDamaged):
		what, _ := store.Damage(err)
		add(false, "lanes doctor --repair (it keeps the damaged file aside and copies every readable record into a new store)", "store: %s", what)
		return
	case errors.Is(err, state.ErrSchemaTooNew):
		add(false, "", "store: %v", err) // says to upgrade
		return
	case errors.Is(err, store.ErrBusy):
		add(false, "wait for the other lanes process, or find it with `fuser "+st.Path()+"`", "store: %v", err)
		return
	case err != nil: // damage is above: this is the file's access (owner, permissions, disk)
		add(false, "check that you own "+st.Path()+" and can read and write it, and that its disk is mounted and not full", "store: %v", err)
		return
	}
	add(schema == store.SchemaVersion, "", "store %s: schema %d, %d KiB, %d session(s), every page readable", st.Path(), schema, size/1024, len(recs))

	a.doctorOtherServers(recs, add)
	doctorWorktrees(recs, add)
	doctorSpool(st, add)
	doctorDropped(dir, recs, counters, add)
	doctorHookErrors(dir, add)
}

// doctorSpool says what hook lines wait for the next cycle.
func doctorSpool(st *store.Store, add addFunc) {
	backlog, err := st.Backlog()
	if err != nil {
		add(false, "", "spool: %v", err)
	}
	var pending []string
	for id, n := range backlog {
		if n > 0 {
			pending = append(pending, fmt.Sprintf("%s %d B", id, n))
		}
	}
	sort.Strings(pending)
	if len(pending) > 0 {
		add(true, "", "spool backlog (ingested at the next cycle): %s", strings.Join(pending, ", "))
	} else {
		add(true, "", "spool: nothing waiting")
	}
}

// doctorDropped counts the spool lines cycles dropped, by reason: the
// records' own counts and the store's; only malformed ones are a problem.
func doctorDropped(dir string, recs []*state.Record, counters map[string]int, add addFunc) {
	dropped := map[string]int{}
	for _, r := range recs {
		for k, n := range r.EventsDropped {
			dropped[k] += n
		}
	}
	for k, n := range counters {
		dropped[strings.TrimPrefix(k, "dropped:")] += n
	}
	if len(dropped) == 0 {
		add(true, "", "no dropped or malformed spool lines")
		return
	}
	keys := make([]string, 0, len(dropped))
	for k := range dropped {
		keys = append(keys, fmt.Sprintf("%s %d", k, dropped[k]))
	}
	sort.Strings(keys)
	// Stale-launch and after-exit drops are fencing doing its job.
	malformed := dropped[state.DropBadJSON] + dropped[state.DropBadVersion] + dropped[state.DropTooLong] +
		dropped[state.DropBadUTF8] + dropped[state.CounterBadSpoolFile]
	add(malformed == 0, "look at the spool lines in "+store.SpoolDir(dir)+"; a hook from another lanes version may be writing them",
		"dropped spool lines by reason: %s", strings.Join(keys, ", "))
}

// doctorHookErrors reports the errors hooks logged instead of failing
// their agent.
func doctorHookErrors(dir string, add addFunc) {
	log := hookErrorsLog(dir)
	if b, err := os.ReadFile(log); err == nil && len(b) > 0 {
		lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
		add(false, "read "+log+", fix the cause, then remove the file",
			"%d hook error(s); last: %s", len(lines), lines[len(lines)-1])
	} else {
		add(true, "", "no hook errors")
	}
}

func (a *app) doctorHooks(stateDir string, add addFunc) {
	home := a.getenv("HOME")
	for _, ag := range state.CodingAgents() {
		if doctorHookBinaries(ag, home, stateDir, add) {
			continue
		}
		path, err := exec.LookPath(string(ag))
		if err != nil {
			add(true, "", "%s: not on PATH — install it for `lanes new --agent %s`, or give lanes new any command after --", ag, ag)
			continue
		}
		installed, err := agent.Installed(ag, home)
		switch {
		case err != nil:
			add(false, "", "%s (%s): reading its config: %v", ag, path, err)
		case installed:
			add(true, "", "%s (%s): lanes hooks installed in its own config", ag, path)
		default:
			add(true, "", "%s (%s): hooks are injected by `lanes new --agent %s` (optional: `lanes hooks install %s` for sessions started outside lanes)", ag, path, ag, ag)
		}
	}
}
