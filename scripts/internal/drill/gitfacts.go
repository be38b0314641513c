package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillGitFacts: ten idle sessions in git checkouts under a running board.
// `lanes ls` runs no git; the board reads ahead, behind and changed beside
// its cycles: a commit shows as ahead 1, a modified and an untracked file
// as changed 2; over the measured window each session costs at most 6 git
// processes a minute, never more than 4 run at once, the board still
// makes one tmux exec a cycle, and reads that change no count write
// nothing to the store (issue 12).
func drillGitFacts(w *world.World) (string, error) {
	window := 60 * time.Second
	if *quick {
		window = 20 * time.Second
	}
	const n = 10
	shim, gitLog, tmuxLog, err := gitShims(w)
	if err != nil {
		return "", err
	}
	for i := range n {
		dir := filepath.Join(w.Root, "repos", "s"+strconv.Itoa(i))
		for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "first"},
			{"checkout", "-q", "-b", "work"}, {"branch", "-q", "-u", "main"}} {
			if err := drillGit(dir, args...); err != nil {
				return "", err
			}
		}
		if r := w.Lanes("", "new", "s"+strconv.Itoa(i), "--dir", dir, "--", "sleep", "86400"); r.Code != 0 {
			return "", fmt.Errorf("lanes new: exit %d: %s", r.Code, r.Stderr)
		}
	}
	path := "PATH=" + shim + ":" + os.Getenv("PATH")
	w.Extra = append(w.Extra, path)
	facts, err := lsGit(w)
	w.Extra = w.Extra[:len(w.Extra)-1]
	if err != nil {
		return "", err
	}
	if g := countLines(gitLog); g != 0 || facts["s0"].Changed != nil {
		return "", fmt.Errorf("lanes ls ran %d git processes and shows %+v before any board read: want none and null", g, facts["s0"])
	}
	lsTmux := countLines(tmuxLog)
	if err := w.StartBoard(w.Socket+"-g", 120, 40, path); err != nil {
		return "", err
	}
	// Changes in two sessions' checkouts; the board finds them.
	s0, s1 := filepath.Join(w.Root, "repos", "s0"), filepath.Join(w.Root, "repos", "s1")
	if err := drillGit(s0, "commit", "-q", "--allow-empty", "-m", "work"); err != nil {
		return "", err
	}
	_ = os.WriteFile(filepath.Join(s1, "tracked"), []byte("a\n"), 0o600)
	_ = drillGit(s1, "add", "tracked")
	_ = drillGit(s1, "commit", "-q", "-m", "tracked")
	_ = os.WriteFile(filepath.Join(s1, "tracked"), []byte("b\n"), 0o600)
	_ = os.WriteFile(filepath.Join(s1, "untracked"), []byte("c\n"), 0o600)
	// As an agent's turn would have made them: a checkout whose sessions
	// sit still is read once a minute, one whose session just worked
	// within 10 s.
	for _, name := range []string{"s0", "s1"} {
		for _, ev := range []string{"active", "idle"} {
			if r := w.Lanes("", "hook", "generic", ev, "--session", name); r.Code != 0 {
				return "", fmt.Errorf("lanes hook: exit %d: %s", r.Code, r.Stderr)
			}
		}
	}
	var seen map[string]gitJSON
	ok := world.Poll(35*time.Second, 500*time.Millisecond, func() bool {
		seen, err = lsGit(w)
		if err != nil || !eq(seen["s0"].Ahead, 1) || !eq(seen["s1"].Changed, 2) || !eq(seen["s1"].Ahead, 1) {
			return false
		}
		for _, g := range seen { // every first read stored, so the window starts idle
			if g.Changed == nil {
				return false
			}
		}
		return true
	})
	if !ok {
		return "", fmt.Errorf("within 35 s: s0 %s, s1 %s; want s0 ahead 1, s1 ahead 1 changed 2, every session read", seen["s0"], seen["s1"])
	}
	// The measured window: the board idle, the sessions quiet.
	_ = os.WriteFile(gitLog, nil, 0o600)
	_ = os.WriteFile(tmuxLog, nil, 0o600)
	db := filepath.Join(w.State, "lanes.db")
	before, _ := os.Stat(db)
	time.Sleep(window)
	after, _ := os.Stat(db)
	wrote := before == nil || after == nil || !after.ModTime().Equal(before.ModTime())
	b, _ := os.ReadFile(gitLog)
	starts, most := concurrency(string(b))
	tmuxExecs := countLines(tmuxLog)
	perMin := float64(starts) * float64(time.Minute) / float64(window)
	ev := fmt.Sprintf("lanes ls: %d tmux exec, 0 git; board found s0 %s, s1 %s\n"+
		"%d idle sessions over %v: %d git processes (%.0f a minute, %.1f per session; budget 1), at most %d at once (budget 4); %d tmux execs (%.1f a second); store written: %v",
		lsTmux, seen["s0"], seen["s1"], n, window, starts, perMin, perMin/n, most, tmuxExecs, float64(tmuxExecs)/window.Seconds(), wrote)
	// One read per quiet checkout per minute: a window of W holds at most
	// W/1 min + 1.
	if starts > n*(int(window/time.Minute)+1) || most > 4 || wrote {
		return ev, fmt.Errorf("over budget")
	}
	return ev, nil
}

// gitJSON is what ls --json says of a session's git facts.
type gitJSON struct{ Ahead, Behind, Changed *int }

func (g gitJSON) String() string {
	f := func(p *int) string {
		if p == nil {
			return "null"
		}
		return strconv.Itoa(*p)
	}
	return fmt.Sprintf("ahead %s behind %s changed %s", f(g.Ahead), f(g.Behind), f(g.Changed))
}

func eq(p *int, n int) bool { return p != nil && *p == n }

func lsGit(w *world.World) (map[string]gitJSON, error) {
	r := w.Lanes("", "ls", "--json")
	if r.Code != 0 {
		return nil, fmt.Errorf("lanes ls: exit %d: %s", r.Code, r.Stderr)
	}
	var list []struct {
		Name                   string `json:"name"`
		Ahead, Behind, Changed *int
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		return nil, err
	}
	out := map[string]gitJSON{}
	for _, s := range list {
		out[s.Name] = gitJSON{s.Ahead, s.Behind, s.Changed}
	}
	return out, nil
}

// gitShims puts a git and a tmux on a PATH directory that log each run:
// git a line when it starts ("b") and one when it ends ("e"), tmux one.
func gitShims(w *world.World) (dir, gitLog, tmuxLog string, err error) {
	dir = filepath.Join(w.Root, "gshim")
	gitLog, tmuxLog = filepath.Join(w.Root, "git.log"), filepath.Join(w.Root, "tmux.log")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", "", err
	}
	for name, body := range map[string]string{
		"git":  "echo b >>'%[1]s'\n'%[2]s' \"$@\"\nrc=$?\necho e >>'%[1]s'\nexit $rc\n",
		"tmux": "echo x >>'%[1]s'\nexec '%[2]s' \"$@\"\n",
	} {
		real, err := exec.LookPath(name)
		if err != nil {
			return "", "", "", err
		}
		log := map[string]string{"git": gitLog, "tmux": tmuxLog}[name]
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+fmt.Sprintf(body, log, real)), 0o700); err != nil {
			return "", "", "", err
		}
	}
	_ = os.WriteFile(gitLog, nil, 0o600)
	_ = os.WriteFile(tmuxLog, nil, 0o600)
	return dir, gitLog, tmuxLog, nil
}

// concurrency counts the starts in a b/e log and the most running at once.
func concurrency(log string) (starts, most int) {
	now := 0
	for l := range strings.Lines(log) {
		switch strings.TrimSpace(l) {
		case "b":
			starts++
			now++
			most = max(most, now)
		case "e":
			now = max(now-1, 0) // a run that began before the window
		}
	}
	return starts, most
}

// drillGit runs the drill's own git in dir with a private configuration.
func drillGit(dir string, args ...string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=lanes", "-c", "user.email=lanes@example.test",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}
