package gh

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/git"
)

// A checkout whose worktree file names a commondir that is a FIFO, or
// /dev/zero behind a link (planted by another user in a directory every
// user may write): choosing the reads neither blocks nor reads without
// end, and no PR is read there (the 28th hostile re-run: the first hung
// the board's cycle with the store held, the second took all memory).
func TestPlantedCommondirNeitherHangsNorFloods(t *testing.T) {
	for name, plant := range map[string]func(string) error{
		"a FIFO":           func(p string) error { return syscall.Mkfifo(p, 0o666) },
		"/dev/zero behind": func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		t.Run(name, func(t *testing.T) {
			ww := filepath.Join(t.TempDir(), "ww")
			evil := filepath.Join(ww, "evil")
			if err := os.MkdirAll(evil, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(ww, 0o1777); err != nil {
				t.Fatal(err)
			}
			for f, body := range map[string]string{filepath.Join(ww, ".git"): "gitdir: " + evil + "\n", filepath.Join(evil, "HEAD"): "ref: refs/heads/main\n"} {
				if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := plant(filepath.Join(evil, "commondir")); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(ww, "mine")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			r := &state.Record{ID: "abcd1234", Dir: dir, Branch: git.Branch(dir)}
			done := make(chan []Job, 1)
			go func() { done <- (&Poller{}).Due([]*state.Record{r}, time.Now(), false, nil) }()
			select {
			case jobs := <-done:
				if len(jobs) != 0 {
					t.Errorf("PRs read in a checkout every user may write: %+v", jobs)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("choosing the reads hung on the planted commondir")
			}
		})
	}
}

// gh's answer naming one PR twice, or a number that is none: the last of
// each number says, once, and the next read of the same answer changes
// nothing.
func TestDuplicatePRNumbersApplyOnce(t *testing.T) {
	now := time.Now()
	r := &state.Record{ID: "abcd1234", Dir: "/x", Branch: "feat", CreatedAt: now.Add(-time.Hour)}
	p := &Poller{dirs: map[string]string{"/x": "/x/.git"}}
	a := ghPR{Number: 7, State: "OPEN", HeadRefName: "feat", URL: "https://github.com/o/r/pull/7", UpdatedAt: now}
	b := a
	b.ReviewDecision = "APPROVED"
	c := ghPR{Number: -1, State: "OPEN", HeadRefName: "feat", UpdatedAt: now}
	read := func(at time.Time) bool {
		return p.Apply(r, []Read{{repo: "/x/.git", at: at, prs: []ghPR{a, b, c}}})
	}
	if !read(now) || len(r.PRs) != 1 || r.PRs[0].Number != 7 || r.PRs[0].Review != state.ReviewApproved {
		t.Fatalf("first read: %+v", r.PRs)
	}
	if read(now.Add(time.Minute)) {
		t.Fatalf("the same answer applied again: %+v", r.PRs)
	}
}
