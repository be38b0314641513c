package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"lanes/state"
	"lanes/state/store"
)

// cmdPR records a PR's facts through the spool, the same ordered path hooks
// use, then runs a cycle so the next read shows them. Flags left out keep
// the PR's current values.
func (a *app) cmdPR(ctx context.Context, args []string) int {
	fs := a.flags("pr")
	number := fs.Int("number", 0, "PR number (required, but with --sync)")
	fs.String("state", "", "open, draft, merged or closed")
	fs.String("review", "", "none, pending, approved or changes_requested")
	fs.String("ci", "", "none, pending, passing or failing")
	fs.String("mergeable", "", "yes, no or unknown")
	fs.String("base", "", "base branch")
	fs.String("head", "", "head branch (default: the session's branch)")
	fs.String("url", "", "PR URL")
	sync := fs.Bool("sync", false, "read the PRs of NAME (or of every session, with no NAME) from GitHub now, with gh")
	create := fs.Bool("create", false, "push NAME's branch and open a PR for it with gh pr create --fill, as the board's P does")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if *create {
		return a.cmdPRCreate(ctx, fs)
	}
	if *sync {
		n := 0
		fs.Visit(func(*flag.Flag) { n++ })
		if n > 1 {
			return a.usageErr(fs, "--sync reads PRs from GitHub; it takes no other flag")
		}
		return a.cmdPRSync(ctx, fs.Args())
	}
	if fs.NArg() != 1 {
		return a.usageErr(fs, "pr needs exactly one NAME")
	}
	if *number <= 0 {
		return a.usageErr(fs, "pr needs --number N (a positive PR number)")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := checkPRFlags(fs, set); err != nil {
		return a.usageErr(fs, "%v", err)
	}
	r, err := a.resolve(ctx, fs.Arg(0))
	if err != nil {
		return a.fail(err)
	}
	p := state.PR{Number: *number, State: state.PRStateOpen, Review: state.ReviewNone, CI: state.CINone,
		Mergeable: state.MergeableUnknown, Head: r.Branch}
	for _, old := range r.PRs {
		if old.Number == *number {
			p = old
		}
	}
	for name, dst := range map[string]*string{"state": &p.State, "review": &p.Review, "ci": &p.CI,
		"mergeable": &p.Mergeable, "base": &p.Base, "head": &p.Head, "url": &p.URL} {
		if set[name] {
			*dst = fs.Lookup(name).Value.String()
		}
	}
	line, err := a.svc().RecordPR(r, p)
	if err != nil {
		return a.fail(err)
	}
	// The resolve above read tmux; applying the line needs the spool only.
	c, err := a.collector()
	var res store.CycleResult
	if err == nil {
		res, err = c.Ingest(ctx)
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "lanes: PR #%d recorded; it applies at the next cycle (%v)\n", p.Number, err)
		return exitOK
	}
	if !prApplied(res.Records, r.ID, line) {
		if backlog, err := c.Store.Backlog(); err == nil && backlog[r.ID] > 0 {
			fmt.Fprintf(a.stderr, "lanes: PR #%d recorded; it applies at the next cycle (%d spool bytes wait before it)\n", p.Number, backlog[r.ID])
			return exitOK
		}
		return a.fail(fmt.Errorf("PR #%d was written to the spool but not applied: ingest dropped its line; see `lanes doctor`", p.Number))
	}
	fmt.Fprintf(a.stdout, "%s: PR #%d %s, review %s, ci %s, mergeable %s\n", r.Name, p.Number, p.State, p.Review, p.CI, p.Mergeable)
	return exitOK
}

// checkPRFlags refuses a PR fact flag given a value outside its
// vocabulary, and a text flag too long for a spool line.
func checkPRFlags(fs *flag.FlagSet, set map[string]bool) error {
	for _, f := range []struct {
		name    string
		allowed []string
	}{{"state", state.PRStates}, {"review", state.Reviews}, {"ci", state.CIs}, {"mergeable", state.Mergeables}} {
		if v := fs.Lookup(f.name).Value.String(); set[f.name] && !slices.Contains(f.allowed, v) {
			return fmt.Errorf("--%s %q: want one of %s", f.name, v, strings.Join(f.allowed, ", "))
		}
	}
	for _, name := range []string{"base", "head", "url"} {
		if v := fs.Lookup(name).Value.String(); len(v) > state.MaxFieldBytes {
			return fmt.Errorf("--%s is %d bytes long; at most %d fit a spool line", name, len(v), state.MaxFieldBytes)
		}
	}
	return nil
}

// prApplied reports whether the PR facts of line are in the session's record
// now: as written, or already replaced by a later line.
func prApplied(recs []*state.Record, id string, line state.Line) bool {
	for _, r := range recs {
		if r.ID != id {
			continue
		}
		for _, got := range r.PRs {
			if got.Number == line.PR.Number && (got.At.After(line.At) || got.At.Equal(line.At) &&
				got.State == line.PR.State && got.Review == line.PR.Review && got.CI == line.PR.CI && got.Mergeable == line.PR.Mergeable) {
				return true
			}
		}
	}
	return false
}

// cmdPRCreate is `lanes pr NAME --create`: the board's P, also what a
// board on another host runs here for it.
func (a *app) cmdPRCreate(ctx context.Context, fs *flag.FlagSet) int {
	n := 0
	fs.Visit(func(*flag.Flag) { n++ })
	switch {
	case n > 1:
		return a.usageErr(fs, "--create makes the PR with gh; it takes no other flag")
	case fs.NArg() != 1:
		return a.usageErr(fs, "--create needs exactly one NAME")
	}
	r, err := a.resolve(ctx, fs.Arg(0))
	if err != nil {
		return a.fail(err)
	}
	said, err := a.svc().CreatePR(ctx, r)
	if err != nil {
		return a.fail(err)
	}
	fmt.Fprintln(a.stdout, said)
	return exitOK
}
