package git

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
// live sessions whose last read is Every old (QuietEvery while none
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
	Every      = 10 * time.Second // per checkout, between reads, while a session in it works
	QuietEvery = time.Minute      // while none does or has moved since the last read
	gitAtOnce  = 4                // git processes at once, all sessions
	gitTimeout = 5 * time.Second  // one read
)

// Run runs git with args in dir and returns its standard output.
type Run func(ctx context.Context, dir string, args ...string) ([]byte, error)

// Poller reads ahead, behind and changed for a collector's sessions;
// the zero value runs the real git.
type Poller struct {
	// Run is the git seam (tests count and hold processes); nil: git.
	Run Run

	mu       sync.Mutex
	started  map[Key]time.Time // when each checkout's last read started
	busy     map[Key]bool      // checkouts being read
	inFlight int
	done     map[Key]Read // finished reads not applied yet
	wg       sync.WaitGroup
}

// Read is what one read found.
type Read struct {
	At                     time.Time
	Ahead, Behind, Changed int
	Counted                bool // git named a base: Ahead and Behind count against it
}

// Key is what a read reads: a directory, its branch and the base the
// counts are against. Sessions with the same key share one read.
type Key struct{ Dir, Branch, Base string }

func KeyOf(r *state.Record) Key { return Key{r.Dir, r.Branch, r.Git.Base} }

// Due chooses the reads to start now: checkouts of live sessions (their
// HEAD file gave a branch), last read Every ago or longer while one of
// their sessions works or changed activity since, QuietEvery otherwise,
// not being read, as many as the gitAtOnce budget has room for. It changes
// nothing: a cycle whose transaction fails starts none of them.
func (p *Poller) Due(recs []*state.Record, now time.Time) []Key {
	p.mu.Lock()
	defer p.mu.Unlock()
	type want struct {
		last, moved time.Time
		working     bool
	}
	wants := map[Key]*want{}
	var order []Key
	for _, r := range recs {
		if !r.Live() || r.Dir == "" || !r.OnBranch() {
			continue
		}
		k := KeyOf(r)
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
	var jobs []Key
	for _, k := range order {
		if p.inFlight+len(jobs) >= gitAtOnce {
			break
		}
		w := wants[k]
		every := QuietEvery
		if w.working || w.moved.After(w.last) {
			every = Every
		}
		if p.busy[k] || !w.last.IsZero() && now.Sub(w.last) < every && !now.Before(w.last) {
			continue
		}
		jobs = append(jobs, k)
	}
	return jobs
}

// Start runs the chosen reads in the background, within the gitAtOnce
// budget; a later cycle's take collects what they found.
func (p *Poller) Start(ctx context.Context, jobs []Key, now func() time.Time) {
	if len(jobs) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started == nil {
		p.started, p.busy = map[Key]time.Time{}, map[Key]bool{}
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
			rd.At = now().UTC().Round(0)
			p.mu.Lock()
			defer p.mu.Unlock()
			p.inFlight--
			delete(p.busy, j)
			if err == nil {
				if p.done == nil {
					p.done = map[Key]Read{}
				}
				p.done[j] = rd
			}
		}()
	}
}

// Wait waits for the reads in flight (tests).
func (p *Poller) Wait() { p.wg.Wait() }

// Take hands over the finished reads.
func (p *Poller) Take() map[Key]Read {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.done
	p.done = nil
	return d
}

// read runs one git status for j.
func (p *Poller) read(ctx context.Context, j Key) (Read, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	args := []string{"--no-optional-locks"}
	if j.Base != "" {
		args = append(args, "-c", "branch."+j.Branch+".remote=.", "-c", "branch."+j.Branch+".merge="+j.Base)
	}
	// A submodule's git would run there too, with its own config: not read.
	args = append(args, "status", "--porcelain=v2", "--branch", "--untracked-files=normal", "--ignore-submodules=all")
	run := p.Run
	if run == nil {
		run = runGit
	}
	out, err := run(ctx, j.Dir, args...)
	if err != nil {
		return Read{}, err
	}
	return parseStatus(out), nil
}

// parseStatus reads git status --porcelain=v2 --branch.
func parseStatus(out []byte) Read {
	var rd Read
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if ab, ok := strings.CutPrefix(line, "# branch.ab "); ok {
			a, b, _ := strings.Cut(ab, " ")
			ahead, errA := strconv.Atoi(strings.TrimPrefix(a, "+"))
			behind, errB := strconv.Atoi(strings.TrimPrefix(b, "-"))
			if errA == nil && errB == nil {
				rd.Ahead, rd.Behind, rd.Counted = ahead, behind, true
			}
			continue
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			rd.Changed++
		}
	}
	return rd
}

func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	if err := ForeignCheckout(dir); err != nil {
		return nil, err // another user's commands would run (the ninth re-run)
	}
	cmd := Command(ctx, os.Environ(), append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", dir, err)
	}
	return out, nil
}

// Apply takes rd into r, reporting whether a count changed: ReadAt is
// stored with the first read and with each change, not with every read (an
// idle board writes nothing).
func (rd Read) Apply(r *state.Record) bool {
	g := r.Git
	g.Ahead, g.Behind = -1, -1 // not countable: no base git can track (a commit hash)
	if rd.Counted {
		g.Ahead, g.Behind = rd.Ahead, rd.Behind
	}
	g.Changed = rd.Changed
	if !g.ReadAt.IsZero() && g.Ahead == r.Git.Ahead && g.Behind == r.Git.Behind && g.Changed == r.Git.Changed {
		return false
	}
	g.ReadAt = rd.At
	r.Git = g
	return true
}
