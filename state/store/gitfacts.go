package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"lanes/state"
)

// Ahead, behind and changed (docs/design.md §12): a slow poller the board's
// collector owns. A cycle picks, inside its transaction, the checkouts of
// live sessions whose last read is gitEvery old (gitQuietEvery while none
// of their sessions works or has moved since); sessions in one directory
// share a read. After the transaction it
// starts their reads beside it, at most gitAtOnce at a time, and returns
// without waiting; a later cycle applies what they found, to the records
// that are still there and live. The tmux read stays the cycle's only
// process. Each read is one git process:
//
//	git --no-optional-locks -C DIR [-c branch.B.remote=. -c branch.B.merge=BASE]
//	    status --porcelain=v2 --branch --untracked-files=normal
//
// whose "# branch.ab +A -B" line is ahead and behind the base (the record's
// Base, made the branch's upstream for this one command; else the branch's
// own upstream; none: only changed), and whose other lines are the files
// changed in the working tree and index against HEAD, untracked included.

// Git poller limits.
const (
	gitEvery      = 10 * time.Second // per checkout, between reads, while a session in it works
	gitQuietEvery = time.Minute      // while none does or has moved since the last read
	gitAtOnce     = 4                // git processes at once, all sessions
	gitTimeout    = 5 * time.Second  // one read
)

// GitRun runs git with args in dir and returns its standard output.
type GitRun func(ctx context.Context, dir string, args ...string) ([]byte, error)

// GitPoller reads ahead, behind and changed for a collector's sessions;
// the zero value runs the real git.
type GitPoller struct {
	// Run is the git seam (tests count and hold processes); nil: git.
	Run GitRun

	mu       sync.Mutex
	started  map[gitKey]time.Time // when each checkout's last read started
	busy     map[gitKey]bool      // checkouts being read
	inFlight int
	done     map[gitKey]gitRead // finished reads not applied yet
	wg       sync.WaitGroup
}

// gitRead is what one read found; ab is false when git named no base.
type gitRead struct {
	at                     time.Time
	ahead, behind, changed int
	ab                     bool
}

// gitKey is what a read reads: a directory, its branch and the base the
// counts are against. Sessions with the same key share one read.
type gitKey struct{ dir, branch, base string }

func gitKeyOf(r *state.Record) gitKey { return gitKey{r.Dir, r.Branch, r.Git.Base} }

// due chooses the reads to start now: checkouts of live sessions (their
// HEAD file gave a branch), last read gitEvery ago or longer while one of
// their sessions works or changed activity since, gitQuietEvery otherwise,
// not being read, as many as the gitAtOnce budget has room for. It changes
// nothing: a cycle whose transaction fails starts none of them.
func (p *GitPoller) due(recs []*state.Record, now time.Time) []gitKey {
	p.mu.Lock()
	defer p.mu.Unlock()
	type want struct {
		last, moved time.Time
		working     bool
	}
	wants := map[gitKey]*want{}
	var order []gitKey
	for _, r := range recs {
		if !r.Live() || r.Dir == "" || !r.OnBranch() {
			continue
		}
		k := gitKeyOf(r)
		w := wants[k]
		if w == nil {
			w = &want{last: p.started[k]}
			wants[k] = w
			order = append(order, k)
		}
		if w.last.Before(r.Git.ReadAt) {
			w.last = r.Git.ReadAt // a read by an earlier board
		}
		if w.moved.Before(r.Activity.Since) {
			w.moved = r.Activity.Since
		}
		w.working = w.working || r.Activity.State == state.ActivityActive
	}
	var jobs []gitKey
	for _, k := range order {
		if p.inFlight+len(jobs) >= gitAtOnce {
			break
		}
		w := wants[k]
		every := gitQuietEvery
		if w.working || w.moved.After(w.last) {
			every = gitEvery
		}
		if p.busy[k] || !w.last.IsZero() && now.Sub(w.last) < every && !now.Before(w.last) {
			continue
		}
		jobs = append(jobs, k)
	}
	return jobs
}

// start runs the chosen reads in the background, within the gitAtOnce
// budget; a later cycle's take collects what they found.
func (p *GitPoller) start(ctx context.Context, jobs []gitKey, now func() time.Time) {
	if len(jobs) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started == nil {
		p.started, p.busy = map[gitKey]time.Time{}, map[gitKey]bool{}
	}
	at := now()
	for _, j := range jobs {
		if p.inFlight >= gitAtOnce || p.busy[j] {
			continue
		}
		p.inFlight++
		p.started[j], p.busy[j] = at, true
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			rd, err := p.read(ctx, j)
			rd.at = now().UTC().Round(0)
			p.mu.Lock()
			defer p.mu.Unlock()
			p.inFlight--
			delete(p.busy, j)
			if err == nil {
				if p.done == nil {
					p.done = map[gitKey]gitRead{}
				}
				p.done[j] = rd
			}
		}()
	}
}

// wait waits for the reads in flight (tests).
func (p *GitPoller) wait() { p.wg.Wait() }

// take hands over the finished reads.
func (p *GitPoller) take() map[gitKey]gitRead {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.done
	p.done = nil
	return d
}

// read runs one git status for j.
func (p *GitPoller) read(ctx context.Context, j gitKey) (gitRead, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	args := []string{"--no-optional-locks"}
	if j.base != "" {
		args = append(args, "-c", "branch."+j.branch+".remote=.", "-c", "branch."+j.branch+".merge="+j.base)
	}
	// A submodule's git would run there too, with its own config: not read.
	args = append(args, "status", "--porcelain=v2", "--branch", "--untracked-files=normal", "--ignore-submodules=all")
	run := p.Run
	if run == nil {
		run = runGit
	}
	out, err := run(ctx, j.dir, args...)
	if err != nil {
		return gitRead{}, err
	}
	return parseStatus(out), nil
}

// parseStatus reads git status --porcelain=v2 --branch.
func parseStatus(out []byte) gitRead {
	var rd gitRead
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if ab, ok := strings.CutPrefix(line, "# branch.ab "); ok {
			a, b, _ := strings.Cut(ab, " ")
			ahead, errA := strconv.Atoi(strings.TrimPrefix(a, "+"))
			behind, errB := strconv.Atoi(strings.TrimPrefix(b, "-"))
			if errA == nil && errB == nil {
				rd.ahead, rd.behind, rd.ab = ahead, behind, true
			}
			continue
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			rd.changed++
		}
	}
	return rd
}

func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	if err := ForeignCheckout(dir); err != nil {
		return nil, err // another user's commands would run (the ninth re-run)
	}
	cmd := GitCommand(ctx, os.Environ(), append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", dir, err)
	}
	return out, nil
}

// setGit takes finished reads into the live records they were read for,
// dirty only when a count changed: ReadAt is stored with the first read
// and with each change, not with every read (an idle board writes nothing).
func (c *cycleTx) setGit(reads map[gitKey]gitRead) {
	if len(reads) == 0 {
		return
	}
	for _, r := range c.records {
		rd, ok := reads[gitKeyOf(r)]
		if !ok || !r.Live() {
			continue
		}
		g := r.Git
		g.Ahead, g.Behind = -1, -1 // not countable: no base git can track (a commit hash)
		if rd.ab {
			g.Ahead, g.Behind = rd.ahead, rd.behind
		}
		g.Changed = rd.changed
		if g.ReadAt.IsZero() || g.Ahead != r.Git.Ahead || g.Behind != r.Git.Behind || g.Changed != r.Git.Changed {
			g.ReadAt = rd.at
			r.Git = g
			c.dirty[r.ID] = true
		}
	}
}
