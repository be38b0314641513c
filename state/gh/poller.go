package gh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"lanes/state"
	"lanes/state/git"
)

// PR facts from GitHub (docs/design.md §14): a poller the board's collector
// owns, as it owns the git poller. A cycle picks, inside its transaction,
// the repositories of live or recently ended sessions whose last read is
// Every old; after the transaction it starts their reads beside it, at
// most AtOnce at a time; a later cycle applies what they found through
// Apply's PR path, as `lanes pr`'s lines are (never fenced: a PR that
// merges after its session was killed moves the card to Merged). One read
// is one process, in a session's dir:
//
//	gh pr list --state all --limit 100 --json number,state,isDraft,…
//
// matched to sessions by head branch.

// PR poller limits.
const (
	Every     = 60 * time.Second // per repository, between reads
	prBackoff = 5 * time.Minute  // after a failed read (rate limit, network, no GitHub remote)
	AtOnce    = 2                // gh processes at once, all repositories
	Timeout   = 30 * time.Second // one read; a hung gh is killed
	// prRecent is how long a session that ended is still followed: its PR
	// may merge after it was killed.
	prRecent = 24 * time.Hour
)

// Poller reads PR facts for a collector's sessions; the zero value runs
// the real gh every Every.
type Poller struct {
	Run   Run           // the gh seam (tests replay recorded answers); nil: gh on PATH
	Every time.Duration // per repository; 0: Every

	mu       sync.Mutex
	off      error     // why gh cannot be used, nil while it can
	offUntil time.Time // when to try gh again (a login may have come)
	worked   bool      // a read succeeded since the poller started
	repos    map[string]*prRepo
	dirs     map[string]string // session dir → repository (its git common dir)
	inFlight int
	done     []Read
	wg       sync.WaitGroup
}

type prRepo struct {
	next time.Time // when it is due again
	busy bool
	err  error // the last read's failure, nil after a good one
}

// Read is one repository's PRs as gh gave them.
type Read struct {
	repo string
	at   time.Time
	prs  []ghPR
}

type Job struct{ repo, dir string }

// every is the cadence per repository.
func (p *Poller) every() time.Duration {
	if p.Every > 0 {
		return p.Every
	}
	return Every
}

// Off is why the poller is off (wrapping ErrOff), nil while it runs. It
// tries gh again prBackoff after it went off: a `gh auth login` since
// turns it on without a restart.
func (p *Poller) Off() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.off
}

// followed: a session whose PRs are read — one with a branch, live or
// ended less than prRecent ago.
func followed(r *state.Record, now time.Time) bool {
	return r.Dir != "" && r.OnBranch() &&
		(r.Live() || r.Runtime.Terminated && now.Sub(r.Runtime.TerminatedAt) < prRecent)
}

// repoOf is the repository dir is in (its git common dir), cached: a
// session's dir does not move. Only the cycle's goroutine (or Sync's
// caller) calls it. "" outside a checkout (not cached, so a dir
// that becomes a repository is seen).
func (p *Poller) repoOf(dir string) string {
	if repo, ok := p.dirs[dir]; ok {
		return repo
	}
	head := git.HeadFile(dir)
	if head == "" {
		return ""
	}
	if p.dirs == nil {
		p.dirs = map[string]string{}
	}
	if git.ForeignCheckout(dir) != nil {
		// Another user's checkout (or one they may write): no PRs read
		// there, and its files not even opened again (the 28th hostile
		// re-run: a planted commondir FIFO hung the cycle, the store
		// held, and /dev/zero behind it took all memory).
		p.dirs[dir] = ""
		return ""
	}
	repo := filepath.Dir(head)
	// A worktree's names its repository: a git file, opened so that
	// nothing planted blocks or floods the read.
	if b, err := git.ReadFile(filepath.Join(repo, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(repo, c)
		}
		repo = filepath.Clean(c)
	}
	p.dirs[dir] = repo
	return repo
}

// Due chooses the reads to start now: each repository of a followed
// session, due and not being read, within the AtOnce budget; the dir
// gh runs in is a live session's where there is one. force takes every
// repository of the sessions named (all when names is empty), due or not.
func (p *Poller) Due(recs []*state.Record, now time.Time, force bool, names map[string]bool) []Job {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.off != nil && !force && now.Before(p.offUntil) {
		return nil
	}
	byRepo := map[string][]*state.Record{}
	var order []string
	for _, r := range recs {
		if !followed(r, now) || len(names) > 0 && !names[r.Name] && !names[r.ID] {
			continue
		}
		repo := p.repoOf(r.Dir)
		if repo == "" {
			continue
		}
		if _, seen := byRepo[repo]; !seen {
			order = append(order, repo)
		}
		byRepo[repo] = append(byRepo[repo], r)
	}
	var jobs []Job
	for _, repo := range order {
		if st := p.repos[repo]; st != nil && (st.busy || !force && now.Before(st.next) && st.next.Sub(now) <= prBackoff+p.every()) {
			continue // (a next read further out than any wait: the clock stepped back)
		}
		if !force && p.inFlight+len(jobs) >= AtOnce {
			break
		}
		if dir := runDir(byRepo[repo]); dir != "" {
			jobs = append(jobs, Job{repo, dir})
		}
	}
	return jobs
}

// runDir is where gh runs for a repository: a live session's dir that is
// there, else an ended one's.
func runDir(recs []*state.Record) string {
	for _, live := range []bool{true, false} {
		for _, r := range recs {
			if _, err := os.Stat(r.Dir); r.Live() == live && err == nil {
				return r.Dir
			}
		}
	}
	return ""
}

// Start runs the chosen reads in the background, at most AtOnce at a
// time; a later cycle's take collects what they found.
func (p *Poller) Start(ctx context.Context, jobs []Job, now func() time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range jobs {
		if p.inFlight >= AtOnce {
			return
		}
		p.launch(ctx, j, now)
	}
}

// launch starts one read; p.mu is held.
func (p *Poller) launch(ctx context.Context, j Job, now func() time.Time) {
	if p.repos == nil {
		p.repos = map[string]*prRepo{}
	}
	st := p.repos[j.repo]
	if st == nil {
		st = &prRepo{}
		p.repos[j.repo] = st
	}
	st.busy = true
	p.inFlight++
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		prs, err := p.read(ctx, j.dir)
		at := now().UTC().Round(0)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.inFlight--
		st.busy, st.err = false, err
		every := p.every()
		st.next = at.Add(every)
		switch {
		case errors.Is(err, ErrOff):
			p.off, p.offUntil = err, at.Add(prBackoff)
			st.next = p.offUntil
		case err != nil:
			st.next = at.Add(max(prBackoff, every))
		default:
			p.off, p.worked = nil, true
			p.done = append(p.done, Read{repo: j.repo, at: at, prs: prs})
		}
	}()
}

// Sync reads now the repositories of the sessions named (all followed
// ones when none are), at most AtOnce at a time, and waits: the next
// cycle applies what it found. It returns the repositories it read (each
// session's dir's, by RepoOf) and each one's failure.
func (p *Poller) Sync(ctx context.Context, recs []*state.Record, names []string, now func() time.Time) (read []string, err error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	jobs := p.Due(recs, now(), true, want)
	for i := 0; i < len(jobs); i += AtOnce {
		p.mu.Lock()
		for _, j := range jobs[i:min(i+AtOnce, len(jobs))] {
			p.launch(ctx, j, now)
		}
		p.mu.Unlock()
		p.wg.Wait()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.off != nil {
		return nil, p.off
	}
	var errs []error
	for _, j := range jobs {
		if err := p.repos[j.repo].err; err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Dir(j.repo), err))
		} else {
			read = append(read, j.repo)
		}
	}
	return read, errors.Join(errs...)
}

// Stopped is why gh stopped answering after it worked (a logout, an
// expired token): the board says so; nil while it works, or when it
// never did (gh not installed or never logged in is no news).
func (p *Poller) Stopped() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.worked {
		return nil
	}
	return p.off
}

// RepoOf is the repository a session's dir is in (its git common dir),
// "" outside a checkout.
func (p *Poller) RepoOf(dir string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.repoOf(dir)
}

// Take hands over the finished reads.
func (p *Poller) Take() []Read {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.done
	p.done = nil
	return d
}

// read runs one gh pr list in dir.
func (p *Poller) read(ctx context.Context, dir string) ([]ghPR, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	run := p.Run
	if run == nil {
		run = Exec
	}
	out, err := run(ctx, dir, Args...)
	if err != nil {
		return nil, err
	}
	var prs []ghPR
	if err := json.Unmarshal(out, &prs); err != nil {
		return nil, fmt.Errorf("gh pr list printed what is not its JSON answer (it starts %q): is the gh on PATH GitHub CLI?", state.Summary(string(out), 40))
	}
	return prs, nil
}

// samePR: nothing the board shows differs.
func samePR(a, b state.PR) bool {
	return a.State == b.State && a.Review == b.Review && a.CI == b.CI && a.Mergeable == b.Mergeable &&
		a.URL == b.URL && a.Base == b.Base && a.Head == b.Head
}

// Apply applies finished reads to r if it is followed in their repository,
// by head branch: an open PR, or one the session has already, always;
// another closed or merged one only if it changed since the session began
// (an old PR of a reused branch name is not this session's); a PR from a
// fork never. Only a PR whose facts differ from the record's is applied;
// it reports whether one was.
func (p *Poller) Apply(r *state.Record, reads []Read) bool {
	applied := false
	for _, rd := range reads {
		if !followed(r, rd.at) || p.repoOf(r.Dir) != rd.repo {
			continue
		}
		for k, g := range rd.prs {
			if g.Number <= 0 || slices.ContainsFunc(rd.prs[k+1:], func(o ghPR) bool { return o.Number == g.Number }) {
				continue // no PR's number, or said again below: the last one says (gh lists each once)
			}
			f := g.fact()
			i := slices.IndexFunc(r.PRs, func(o state.PR) bool { return o.Number == f.Number })
			if g.IsCrossRepo || i < 0 && (g.HeadRefName != r.Branch || g.State != "OPEN" && g.changed().Before(r.CreatedAt)) {
				continue // (one it has is followed whatever the branch is now: gh pr merge -d leaves it)
			}
			if i >= 0 && samePR(r.PRs[i], f) {
				continue
			}
			state.Apply(r, state.Event{Kind: state.KindPR, At: rd.at, Source: "gh", Detail: "pr", PR: &f})
			applied = true
		}
	}
	return applied
}

// Wait waits for the reads in flight (tests).
func (p *Poller) Wait() { p.wg.Wait() }
