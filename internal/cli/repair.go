package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"lanes/state/store"
)

// doctorRepair is `lanes doctor --repair`: a damaged store is replaced by
// one holding every record that could be read (docs/design.md §7). It
// prints what it did and reports whether it could do it.
func (a *app) doctorRepair(ctx context.Context) bool {
	st, err := a.store()
	if err != nil {
		fmt.Fprintf(a.stdout, "repair: %v\n", err)
		return false
	}
	rep, err := st.Repair(a.now(), a.svc().RepairTraces(ctx, st.Dir))
	if err != nil {
		fmt.Fprintf(a.stdout, "repair: %v\n", err)
		return false
	}
	if rep.Healthy {
		fmt.Fprintf(a.stdout, "repair: the store %s passed every check; nothing to repair\n\n", st.Path())
		return true
	}
	fmt.Fprintf(a.stdout, "repair: the store %s was damaged: %s\n", st.Path(), rep.Damage)
	if rep.KeptAt != "" {
		fmt.Fprintf(a.stdout, "repair: the damaged file is kept at %s\n", rep.KeptAt)
	}
	fmt.Fprintf(a.stdout, "repair: %s\n", rebuiltSummary(rep))
	replayed := ""
	if rep.Replayed > 0 {
		replayed = " (events applied again: activity ends where the latest event puts it, events_applied counts them twice)"
	}
	fmt.Fprintf(a.stdout, "repair: spool: %d file(s) resumed where the store had read them, %d replayed from their first line%s; %d line(s) applied, %d dropped\n\n",
		rep.Resumed, rep.Replayed, replayed, rep.Ingested, rep.Dropped)
	return true
}

// rebuiltSummary says what the repair recovered and what it rebuilt, by
// name.
func rebuiltSummary(rep store.RepairReport) string {
	var live, ended, byID []string
	for _, r := range rep.Rebuilt {
		switch {
		case r.Live:
			live = append(live, r.Name)
		case r.Named:
			ended = append(ended, r.Name)
		default:
			byID = append(byID, r.ID)
		}
	}
	slices.Sort(live)
	slices.Sort(ended)
	s := fmt.Sprintf("recovered %d record(s) as they were", rep.Recovered)
	if len(rep.Rebuilt) == 0 {
		return s + "; none lost"
	}
	var parts []string
	if len(live) > 0 {
		parts = append(parts, fmt.Sprintf("%d live in tmux: %s", len(live), strings.Join(live, ", ")))
	}
	if len(ended) > 0 {
		parts = append(parts, fmt.Sprintf("%d ended: %s", len(ended), strings.Join(ended, ", ")))
	}
	s += fmt.Sprintf("; rebuilt %d from traces", len(rep.Rebuilt))
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, "; ") + ")"
	}
	if len(byID) > 0 {
		s += fmt.Sprintf("; %d known only by id (%s), rebuilt as ended", len(byID), strings.Join(byID, ", "))
	}
	return s
}
