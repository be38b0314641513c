package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/state/store"
	"lanes/theme"
	"lanes/tmux"
)

func (a *app) cmdLs(ctx context.Context, args []string) int {
	fs := a.flags("ls")
	asJSON := fs.Bool("json", false, "print a JSON array, one object per session")
	all := fs.Bool("all", false, "include sessions terminated more than 24 h ago")
	allHosts := fs.Bool("all-hosts", false, "also list the sessions of every host in the hosts file (ssh HOST lanes ls --json); a host that does not answer is named on stderr, and ls exits 1 after printing the rest")
	watch := fs.Bool("watch", false, "with --json: stream JSON lines, a snapshot then one line per change; ends when stdin\nreaches its end (ssh closed) or stdout breaks, but not on a stdin of /dev/null (a script's\nbackground job has that): then it runs until stopped")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "ls takes no arguments")
	}
	if *watch && !*asJSON {
		return a.usageErr(fs, "--watch streams JSON lines: add --json (`lanes ls --json --watch`)")
	}
	if *watch && *allHosts {
		return a.usageErr(fs, "--watch streams this host's sessions: leave out --all-hosts (each host streams its own)")
	}
	if *watch {
		return a.watchLs(ctx, *all)
	}
	recs, err := a.lsRecords(ctx, a.cycle)
	if err != nil {
		return a.fail(err)
	}
	now := a.now()
	views := listViews(recs, now, *all)
	a.noteOtherServers(recs)
	a.noteServerExit(recs, now)
	// A host that did not answer exits 1, after all the rest is printed:
	// a script sees the listing is not whole.
	done, complete := exitOK, true
	if *allHosts {
		if views, complete = a.withHosts(ctx, views, *all); !complete {
			done = exitError
		}
	}
	if *asJSON {
		b, err := json.Marshal(a.listings(views))
		if err != nil {
			return a.fail(err)
		}
		_, _ = a.stdout.Write(append(state.JSONSafe(b), '\n'))
		return done
	}
	if len(views) == 0 {
		fmt.Fprintf(a.stdout, "no sessions%s — start one with `lanes new NAME`\n", a.where(*allHosts, complete, "ls"))
		return done
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	head, row := "", func(state.Derived) string { return "" }
	if *allHosts {
		head, row = "HOST\t", func(v state.Derived) string { return state.CleanText(cmp.Or(v.Host, localHost)) + "\t" }
	}
	fmt.Fprintln(tw, head+"NAME\tAGENT\tBRANCH\tSTATUS\tZONE\tAGE\tID")
	for _, v := range views {
		// Cleaned where they come in; once more here, before a terminal.
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row(v), state.CleanText(v.Rec.Name), state.CleanText(string(v.Rec.Agent)),
			lsBranch(state.CleanText(v.Rec.Branch)), statusLabel(v),
			theme.ZoneSpec(v.D.Zone).Short, theme.Age(now, v.D.Since), v.Rec.ID)
	}
	tw.Flush()
	return done
}

// lsBranchWidth is the widest branch the table shows: with the other
// columns of a typical session a row stays within 100 columns.
const lsBranchWidth = 24

// lsBranch is a session's branch for the table: "-" with none, a long one
// cut with "…" (ls --json has it whole).
func lsBranch(b string) string {
	if b == "" {
		return "-"
	}
	if r := []rune(b); len(r) > lsBranchWidth {
		return string(r[:lsBranchWidth-1]) + "…"
	}
	return b
}

// lsRecords is what ls lists: the records of a cycle, else, while another
// process (a board) holds the store, its last cycle's snapshot, else the
// store as it is when the disk is full.
func (a *app) lsRecords(ctx context.Context, cycle func(context.Context) (store.CycleResult, error)) ([]*state.Record, error) {
	res, err := cycle(ctx)
	if errors.Is(err, store.ErrBusy) {
		if recs, ok := a.snapshot(snapshotMaxAge); ok {
			a.warn("store busy; showing the last cycle, under %s old", snapshotMaxAge)
			return recs, nil
		}
	}
	if err != nil {
		return a.readOnlyRecords(err)
	}
	return res.Records, nil
}

// listings is views as `ls --json` prints them.
func (a *app) listings(views []state.Derived) []listing.Session {
	content := !state.Off(a.getenv(state.EnvContent))
	out := make([]listing.Session, len(views))
	for i, v := range views {
		out[i] = listing.From(v, content)
	}
	return out
}

// listViews derives every record and sorts it as the board's sidebar does,
// most urgent first (state.Derived.Compare); by default sessions terminated more
// than 24 h ago are left out.
func listViews(recs []*state.Record, now time.Time, all bool) []state.Derived {
	var out []state.Derived
	for _, r := range recs {
		if !all && !r.Recent(now) {
			continue
		}
		out = append(out, state.DeriveAt(r, now))
	}
	slices.SortFunc(out, func(x, y state.Derived) int { return x.Compare(&y) })
	return out
}

// statusText is the status in words, "exited (3)" for an exited agent.
func statusText(v state.Derived) string {
	return cmp.Or(state.Detail(v.Rec, v.D), theme.StatusSpec(v.D.Status).Short)
}

// statusLabel is the status with its glyph, exit detail and marks.
func statusLabel(v state.Derived) string {
	s := theme.StatusSpec(v.D.Status).Glyph + " " + statusText(v)
	for _, m := range v.D.Marks {
		s += " · " + theme.MarkShort(m, v.Rec, false)
	}
	return s
}

// noteOtherServers says on stderr which live sessions sit on a tmux server
// this command did not read (another --socket, or none where
// LANES_TMUX_SOCKET was set before): they show what was last read of them,
// which may be long ago.
func (a *app) noteOtherServers(recs []*state.Record) {
	n := map[string]int{}
	for _, r := range recs {
		if r.Live() && r.Runtime.Socket != a.socket {
			n[r.Runtime.Socket]++
		}
	}
	here, _ := tmux.ServerName(a.socket)
	for _, socket := range slices.Sorted(maps.Keys(n)) {
		there, _ := tmux.ServerName(socket)
		flag := "--socket " + socket
		if socket == "" {
			flag = `--socket ""`
		}
		fmt.Fprintf(a.stderr, "lanes: note: %d live session(s) on %s, which this command did not read (it reads %s): their status is as last read; `lanes %s ls` reads them\n",
			n[socket], there, here, flag)
	}
}

// noteServerExit says on stderr, for ten minutes after it, that a tmux
// server exited and ended sessions with it, and what brings them back
// (the board's title line says the same).
func (a *app) noteServerExit(recs []*state.Record, now time.Time) {
	socket, names := store.LastServerExit(recs, now.Add(-10*time.Minute))
	if len(names) == 0 {
		return
	}
	server, _ := tmux.ServerName(socket)
	slices.Sort(names)
	fmt.Fprintf(a.stderr, "lanes: note: %s exited, and %d session(s) ended with it (%s); `lanes restore --all` starts them again\n",
		server, len(names), strings.Join(names, ", "))
}
