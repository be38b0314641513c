package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"lanes/state"
	"lanes/state/gh"
	"lanes/theme"
)

// envPREvery sets how often the board reads each repository's PRs from
// GitHub: a duration (default 60s, at least 5s), or "off".
const envPREvery = "LANES_PR_EVERY"

// prPoller is the board's GitHub poller, as $LANES_PR_EVERY says; nil
// when it is off.
func (a *app) prPoller() (*gh.Poller, error) {
	v := a.getenv(envPREvery)
	if state.Off(v) {
		return nil, nil
	}
	var every time.Duration
	if v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 5*time.Second {
			return nil, fmt.Errorf("$%s is %q: want a duration of at least 5s (such as 60s or 2m), or off", envPREvery, v)
		}
		every = d
	}
	return &gh.Poller{Run: a.gh(), Every: every}, nil
}

// gh runs the gh on this invocation's PATH with its environment, looked
// up at each run: one installed while the board runs is found.
func (a *app) gh() gh.Run {
	return func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		return gh.With(a.svc().LookPath("gh"), a.svc().Environ())(ctx, dir, args...)
	}
}

// cmdPRSync is `lanes pr --sync [NAME…]`: one gh read now of each
// repository of the named sessions (all live and recently ended ones
// when none is named), applied as the board's poller applies them. It
// says what it found for each session it read, and why it read nothing
// for a named one it could not.
func (a *app) cmdPRSync(ctx context.Context, names []string) int {
	c, err := a.collector()
	if err != nil {
		return a.fail(err)
	}
	res, err := a.quietCycle(ctx)
	if err != nil {
		return a.fail(err)
	}
	var named []*state.Record
	for _, n := range names {
		r, err := state.Resolve(res.Records, n)
		if err != nil {
			return a.fail(err)
		}
		named = append(named, r)
	}
	if a.svc().LookPath("gh") == "" {
		return a.fail(gh.ErrMissing)
	}
	p := &gh.Poller{Run: a.gh()}
	var ids []string
	for _, r := range named {
		ids = append(ids, r.ID)
		if !r.OnBranch() || p.RepoOf(r.Dir) == "" {
			fmt.Fprintf(a.stderr, "lanes: %s is in no git checkout (%s): no PRs to read\n", r.Name, r.Dir)
		}
	}
	read, syncErr := p.Sync(ctx, res.Records, ids, a.now)
	if errors.Is(syncErr, gh.ErrOff) {
		return a.fail(syncErr)
	}
	c.PRs = p
	after, err := c.Ingest(ctx)
	if err != nil {
		return a.fail(err)
	}
	shown := 0
	for _, r := range after.Records {
		if len(ids) > 0 && !slices.Contains(ids, r.ID) || !slices.Contains(read, p.RepoOf(r.Dir)) || !r.OnBranch() {
			continue
		}
		var prs []string
		for _, pr := range r.PRs {
			if s, ok := state.PROwnStatus(pr); ok {
				prs = append(prs, fmt.Sprintf("#%d %s", pr.Number, theme.StatusSpec(s).Short))
			} else {
				prs = append(prs, fmt.Sprintf("#%d %s", pr.Number, pr.State))
			}
		}
		if len(prs) == 0 {
			prs = []string{"no PR for branch " + r.Branch}
		}
		fmt.Fprintf(a.stdout, "%s: %s\n", r.Name, strings.Join(prs, ", "))
		shown++
	}
	if shown == 0 && syncErr == nil {
		fmt.Fprintln(a.stdout, "no session is on a branch of a git checkout: no PRs to read")
	}
	if syncErr != nil {
		return a.fail(fmt.Errorf("some repositories were not read (the board tries each again in 5 minutes): %w", syncErr))
	}
	return exitOK
}

// doctorPRs says whether the board reads PRs from GitHub, and how to turn
// it on when it does not; off is no problem (lanes pr still records PRs).
func (a *app) doctorPRs(ctx context.Context, add addFunc) {
	p, err := a.prPoller()
	switch {
	case err != nil:
		add(false, "unset "+envPREvery+", or set it to a duration such as 2m", "PRs from GitHub: %v", err)
		return
	case p == nil:
		v, from := a.settingFrom("pr.every")
		said := from + "=" + v // $LANES_PR_EVERY=off
		if !strings.HasPrefix(from, "$") {
			said = from + ": pr.every = " + v
		}
		add(true, "", "PRs from GitHub: off (%s); change it to turn them on", said)
		return
	}
	bin := a.svc().LookPath("gh")
	if bin == "" {
		add(true, "", "PRs from GitHub: off — gh is not installed; to turn them on, install GitHub CLI (https://cli.github.com) and run `gh auth login`; the board tries again every 5 minutes")
		return
	}
	// gh auth token reads the stored login without the network; its
	// output (the token) is thrown away.
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := a.gh()(ctx, "", "auth", "token"); err != nil {
		add(true, "", "PRs from GitHub: off — %s is not logged in; to turn them on, run `gh auth login` (or set GH_TOKEN); the board tries again every 5 minutes", bin)
		return
	}
	every := p.Every
	if every == 0 {
		every = gh.Every
	}
	add(true, "", "PRs from GitHub: on (%s); the board reads each repository's PRs every %v, `lanes pr --sync` now", bin, every)
}
