package gh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"lanes/state"
	"lanes/state/git"
)

// gh, the GitHub CLI, as the PR poller (prsync.go) runs it: the one
// command, how its answer becomes PR facts, and what its failures mean.

// ghFields are the fields one read asks gh for.
const ghFields = "number,state,isDraft,reviewDecision,statusCheckRollup,mergeable,baseRefName,headRefName,url,updatedAt,closedAt,isCrossRepository"

// Args is the one gh command a read runs.
var Args = []string{"pr", "list", "--state", "all", "--limit", "100", "--json", ghFields}

// Env keeps gh from prompting, colouring or telling of updates.
var Env = []string{"GH_PROMPT_DISABLED=1", "NO_COLOR=1", "GH_NO_UPDATE_NOTIFIER=1"}

// Run runs gh with args in dir and returns its standard output; its
// error says what gh said.
type Run func(ctx context.Context, dir string, args ...string) ([]byte, error)

// ErrOff wraps why the poller stays off: gh is not installed, or not
// logged in. Nothing else changes; `lanes doctor` says how to turn it on.
var ErrOff = errors.New("PRs from GitHub are off")

// ErrNoGH: gh is not on PATH; ErrMissing is the poller off for it.
var (
	ErrNoGH    = errors.New("gh is not installed; install GitHub CLI and run gh auth login")
	ErrMissing = fmt.Errorf("%w: %w", ErrOff, ErrNoGH)
)

// ghPR is one entry of gh pr list --json (fields as gh names them).
type ghPR struct {
	Number         int       `json:"number"`
	State          string    `json:"state"` // OPEN, CLOSED, MERGED
	IsDraft        bool      `json:"isDraft"`
	ReviewDecision string    `json:"reviewDecision"` // APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED, ""
	Mergeable      string    `json:"mergeable"`      // MERGEABLE, CONFLICTING, UNKNOWN
	BaseRefName    string    `json:"baseRefName"`
	HeadRefName    string    `json:"headRefName"`
	URL            string    `json:"url"`
	UpdatedAt      time.Time `json:"updatedAt"`
	ClosedAt       time.Time `json:"closedAt"` // merged or closed; zero while open
	IsCrossRepo    bool      `json:"isCrossRepository"`
	Checks         []struct {
		Type       string `json:"__typename"` // CheckRun or StatusContext
		Status     string `json:"status"`     // CheckRun: QUEUED, IN_PROGRESS, COMPLETED, …
		Conclusion string `json:"conclusion"` // CheckRun: SUCCESS, FAILURE, NEUTRAL, SKIPPED, …
		State      string `json:"state"`      // StatusContext: SUCCESS, PENDING, EXPECTED, FAILURE, ERROR
	} `json:"statusCheckRollup"`
}

// changed is when a closed or merged PR ended (a comment since moves
// updatedAt, not closedAt).
func (g ghPR) changed() time.Time {
	if !g.ClosedAt.IsZero() {
		return g.ClosedAt
	}
	return g.UpdatedAt
}

// fact is the PR as lanes keeps it (docs/design.md §2).
func (g ghPR) fact() state.PR {
	// gh's words are the forge's, and anyone may name a branch anything.
	p := state.PR{Number: g.Number, URL: state.CleanText(g.URL), Base: state.CleanText(g.BaseRefName), Head: state.CleanText(g.HeadRefName),
		State: state.PRStateOpen, Review: state.ReviewNone, CI: state.CINone, Mergeable: state.MergeableUnknown}
	switch {
	case g.State == "MERGED":
		p.State = state.PRStateMerged
	case g.State == "CLOSED":
		p.State = state.PRStateClosed
	case g.IsDraft:
		p.State = state.PRStateDraft
	}
	switch g.ReviewDecision {
	case "APPROVED":
		p.Review = state.ReviewApproved
	case "CHANGES_REQUESTED":
		p.Review = state.ReviewChangesRequested
	case "REVIEW_REQUIRED":
		p.Review = state.ReviewPending
	}
	switch g.Mergeable {
	case "MERGEABLE":
		p.Mergeable = state.MergeableYes
	case "CONFLICTING":
		p.Mergeable = state.MergeableNo
	}
	p.CI = g.ci()
	return p
}

// ci sums the checks: any failing is failing, else any not done is
// pending, else passing; none: none.
func (g ghPR) ci() string {
	if len(g.Checks) == 0 {
		return state.CINone
	}
	pending := false
	for _, c := range g.Checks {
		v := c.Conclusion
		if c.Type == "StatusContext" {
			v = c.State
		} else if c.Status != "COMPLETED" {
			v = "PENDING"
		}
		switch v {
		case "SUCCESS", "NEUTRAL", "SKIPPED":
		case "FAILURE", "ERROR", "CANCELLED", "TIMED_OUT", "ACTION_REQUIRED", "STARTUP_FAILURE", "STALE":
			return state.CIFailing
		default:
			pending = true
		}
	}
	if pending {
		return state.CIPending
	}
	return state.CIPassing
}

// Exec runs the gh on PATH, never prompting.
func Exec(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return With("gh", os.Environ())(ctx, dir, args...)
}

// With runs gh as bin ("": not installed) with env and a few settings of
// its own that keep it from prompting or drawing. Its error wraps
// ErrOff when gh is missing or not logged in (gh exits 4 then), else
// says what gh printed.
func With(bin string, env []string) Run {
	return func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		if bin == "" {
			return nil, ErrMissing
		}
		return runGH(ctx, bin, env, dir, args...)
	}
}

func runGH(ctx context.Context, bin string, env []string, dir string, args ...string) ([]byte, error) {
	// gh runs git in dir: never in another user's checkout, as lanes' own
	// git never does (git.ForeignCheckout).
	if err := git.ForeignCheckout(dir); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	// gh runs git (git remote, git config): its git gets lanes' git
	// environment (git.Env).
	cmd.Env = append(git.Env(env), Env...)
	// A gh behind a wrapper script leaves a child holding the output pipe
	// when the timeout kills it: stop waiting for that pipe soon after.
	cmd.WaitDelay = 2 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		return out, nil
	}
	said := strings.TrimSpace(stderr.String())
	if i := strings.IndexByte(said, '\n'); i > 0 {
		said = said[:i]
	}
	var exit *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return nil, ErrMissing
	case errors.As(err, &exit) && exit.ExitCode() == 4, strings.Contains(said, "gh auth login"):
		return nil, fmt.Errorf("%w: gh is not logged in (run gh auth login, or set GH_TOKEN)", ErrOff)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("gh %s gave no answer in time", strings.Join(args[:min(2, len(args))], " "))
	case said != "":
		return nil, fmt.Errorf("gh %s: %s", strings.Join(args[:min(2, len(args))], " "), said)
	}
	return nil, fmt.Errorf("gh %s: %w", strings.Join(args[:min(2, len(args))], " "), err)
}
