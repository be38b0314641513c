package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"lanes/state"
)

// envPREvery sets how often the board reads each repository's PRs from
// GitHub: a duration (default 60s, at least 5s), or "off".
const envPREvery = "LANES_PR_EVERY"

// prPoller is the board's GitHub poller, as $LANES_PR_EVERY says; nil
// when it is off.
func (a *app) prPoller() (*state.PRPoller, error) {
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
	return &state.PRPoller{Run: a.gh(), Every: every}, nil
}

// ghEnvKeys are what gh reads of this invocation's environment: where its
// login is kept, or a token.
var ghEnvKeys = []string{"HOME", "PATH", "XDG_CONFIG_HOME", "GH_CONFIG_DIR", "GH_TOKEN", "GITHUB_TOKEN", "GH_HOST", "GH_ENTERPRISE_TOKEN"}

// gh runs the gh on this invocation's PATH with its environment.
func (a *app) gh() state.GHRun { return state.GH(a.lookPath("gh"), a.environ()) }

// cmdPRSync is `lanes pr --sync [NAME…]`: one gh read now of each
// repository of the named sessions (all live and recently ended ones
// when none is named), applied as the board's poller applies them.
func (a *app) cmdPRSync(ctx context.Context, names []string) int {
	c, err := a.collector()
	if err != nil {
		return a.fail(err)
	}
	res, err := a.quietCycle(ctx)
	if err != nil {
		return a.fail(err)
	}
	var ids []string
	for _, n := range names {
		r, err := state.Resolve(res.Records, n)
		if err != nil {
			return a.fail(err)
		}
		ids = append(ids, r.ID)
	}
	p := &state.PRPoller{Run: a.gh()}
	syncErr := p.Sync(ctx, res.Records, ids, a.now)
	if errors.Is(syncErr, state.ErrGHOff) {
		return a.fail(syncErr)
	}
	sc := spoolOnly(c)
	sc.PRs = p
	after, err := sc.Cycle(ctx)
	if err != nil {
		return a.fail(err)
	}
	read, _ := p.Repos()
	shown := 0
	for _, r := range after.Records {
		if len(ids) > 0 && !slices.Contains(ids, r.ID) || len(r.PRs) == 0 {
			continue
		}
		var prs []string
		for _, pr := range r.PRs {
			s, _ := state.PROwnStatus(pr)
			prs = append(prs, fmt.Sprintf("#%d %s", pr.Number, cmpOr(string(s), pr.State)))
		}
		fmt.Fprintf(a.stdout, "%s: %s\n", r.Name, strings.Join(prs, ", "))
		shown++
	}
	if shown == 0 {
		fmt.Fprintf(a.stdout, "no PR for these sessions' branches (%d %s read)\n", read, plural(read, "repository", "repositories"))
	}
	if syncErr != nil {
		return a.fail(fmt.Errorf("some repositories were not read (each is tried again in 5 minutes by the board): %w", syncErr))
	}
	return exitOK
}

func cmpOr(s, alt string) string {
	if s != "" {
		return s
	}
	return alt
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
		add(true, "", "PRs from GitHub: off ($%s=%s); unset it to turn them on", envPREvery, a.getenv(envPREvery))
		return
	}
	bin := a.lookPath("gh")
	if bin == "" {
		add(true, "", "PRs from GitHub: off — gh is not installed; to turn them on, install GitHub CLI (https://cli.github.com), run `gh auth login`, and restart the board")
		return
	}
	// gh auth token reads the stored login without the network; its
	// output (the token) is thrown away.
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := a.gh()(ctx, "", "auth", "token"); err != nil {
		add(true, "", "PRs from GitHub: off — %s is not logged in; to turn them on, run `gh auth login` (or set GH_TOKEN) and restart the board", bin)
		return
	}
	every := p.Every
	if every == 0 {
		every = state.PREvery
	}
	add(true, "", "PRs from GitHub: on (%s); the board reads each repository's PRs every %v, `lanes pr --sync` now", bin, every)
}
