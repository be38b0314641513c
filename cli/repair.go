package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/state"
)

// doctorRepair is `lanes doctor --repair`: a damaged store is replaced by
// one holding every record that could be read (docs/design.md §7). It
// prints what it did and reports whether it could do it.
func (a *app) doctorRepair() bool {
	st, err := a.store()
	if err != nil {
		fmt.Fprintf(a.stdout, "repair: %v\n", err)
		return false
	}
	rep, err := st.Repair(a.now(), indexedIDs(st.Dir))
	if err != nil {
		fmt.Fprintf(a.stdout, "repair: %v\n", err)
		return false
	}
	if rep.Healthy {
		fmt.Fprintf(a.stdout, "repair: the store %s passed every check; nothing to repair\n\n", st.Path())
		return true
	}
	fmt.Fprintf(a.stdout, "repair: the store %s was damaged: %s\n", st.Path(), rep.Damage)
	fmt.Fprintf(a.stdout, "repair: the damaged file is kept at %s\n", rep.KeptAt)
	lost := "none lost"
	if len(rep.Lost) > 0 {
		lost = fmt.Sprintf("%d lost (%s): their records were unreadable; their spool lines count as %s",
			len(rep.Lost), strings.Join(rep.Lost, ", "), state.DropUnknownSess)
	}
	fmt.Fprintf(a.stdout, "repair: recovered %d session record(s), %s\n", rep.Recovered, lost)
	replayed := ""
	if rep.Replayed > 0 {
		replayed = " (events applied again: activity ends where the latest event puts it, events_applied counts them twice)"
	}
	fmt.Fprintf(a.stdout, "repair: spool: %d file(s) resumed where the store had read them, %d replayed from their first line%s; %d line(s) applied, %d dropped\n\n",
		rep.Resumed, rep.Replayed, replayed, rep.Ingested, rep.Dropped)
	return true
}

// indexedIDs are the session ids the hook's indexes name: every session
// `lanes new` made and `lanes rm` has not removed, so repair can tell which
// records it could not read.
func indexedIDs(stateDir string) []string {
	var ids []string
	for _, sub := range []string{"names", "panes"} {
		entries, _ := os.ReadDir(filepath.Join(stateDir, sub))
		for _, de := range entries {
			b, err := os.ReadFile(filepath.Join(stateDir, sub, de.Name()))
			if id, _, _ := strings.Cut(strings.TrimSpace(string(b)), " "); err == nil && state.ValidID(id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}
