package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillPRKeys: on the running board, P on a session whose branch has a
// commit shows the push and gh commands, y pushes the branch to a local
// bare origin and runs a gh stand-in that prints a PR URL, and the card
// gets PR #42 at once; o then runs a $BROWSER stand-in with that URL and
// nothing else (docs/design.md §14).
func drillPRKeys(w *world.World) (string, error) {
	w.Extra = append(w.Extra, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	repo, bare, bin := filepath.Join(w.Root, "proj"), filepath.Join(w.Root, "origin.git"), filepath.Join(w.Root, "bin")
	for _, step := range []struct {
		dir  string
		args []string
	}{
		{w.Root, []string{"init", "-q", "--bare", bare}},
		{repo, []string{"init", "-q"}},
		{repo, []string{"commit", "-q", "--allow-empty", "-m", "first"}},
		// Reached as a remote (ext::, as over ssh): P takes no local
		// transport.
		{repo, []string{"remote", "add", "origin", "ext::git %s " + bare}},
		{repo, []string{"config", "protocol.ext.allow", "always"}},
		{repo, []string{"checkout", "-q", "-b", "feat"}},
		{repo, []string{"commit", "-q", "--allow-empty", "-m", "feat: the work"}},
	} {
		if err := drillGit(step.dir, step.args...); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(bin, 0o700); err != nil {
		return "", err
	}
	ghLog, browserLog := filepath.Join(w.Root, "gh.log"), filepath.Join(w.Root, "browser.log")
	scripts := map[string]string{
		"gh":      "{ pwd; printf '%s\\n' \"$@\"; } > '" + ghLog + "'\necho https://github.com/o/r/pull/42\n",
		"browser": "printf '%s\\n' \"$@\" > '" + browserLog + "'\n",
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o700); err != nil {
			return "", err
		}
	}
	if r := w.Lanes("", "new", "api", "--dir", repo, "--", "sleep", "86400"); r.Code != 0 {
		return "", fmt.Errorf("lanes new: exit %d: %s", r.Code, r.Stderr)
	}
	view := w.Socket + "-pr" // the world's: two drill runs side by side share no server
	if err := w.StartBoard(view, 120, 40, "PATH="+bin+":"+os.Getenv("PATH"), "BROWSER="+filepath.Join(bin, "browser")); err != nil {
		return "", err
	}
	shows := func(s string) bool {
		return world.WaitFor(15*time.Second, func() bool { return strings.Contains(w.Screen(view), s) })
	}
	if !shows("api  feat") {
		return "", fmt.Errorf("the board never showed api on feat:\n%s", w.Screen(view))
	}
	_, _ = w.Tmux(view, "send-keys", "j") // from the idle stack's header to api
	if !shows("▌ ○ api") {
		return "", fmt.Errorf("j did not select api:\n%s", w.Screen(view))
	}
	_, _ = w.Tmux(view, "send-keys", "P")
	if !shows("gh pr create --fill --head feat") || !shows("git push -u origin feat") {
		return "", fmt.Errorf("P showed no confirm with both commands:\n%s", w.Screen(view))
	}
	ev := "P confirm: " + strings.Trim(grepLine(w.Screen(view), "git push -u origin"), "┃ ") + " / " +
		strings.Trim(grepLine(w.Screen(view), "gh pr create"), "┃ ")
	_, _ = w.Tmux(view, "send-keys", "y")
	if !shows("PR created: https://github.com/o/r/pull/42") {
		return ev, fmt.Errorf("y: no PR created on the status line:\n%s", w.Screen(view))
	}
	ev += "\ny: " + grepLine(w.Screen(view), "PR created")
	pushed, err := gitOutput(bare, "rev-parse", "refs/heads/feat")
	head, _ := gitOutput(repo, "rev-parse", "HEAD")
	gh, _ := os.ReadFile(ghLog)
	ev += fmt.Sprintf("\norigin's feat %.7s (HEAD %.7s); gh ran as %q", pushed, head, strings.Split(strings.TrimSpace(string(gh)), "\n"))
	if err != nil || pushed != head || string(gh) != repo+"\npr\ncreate\n--fill\n--head\nfeat\n" {
		return ev, fmt.Errorf("the branch or gh's argv is not what P showed")
	}
	var status string
	world.WaitFor(10*time.Second, func() bool {
		ls, err := w.Ls()
		status = ls["api"].Status
		return err == nil && status == "pr_open"
	})
	ev += "\nls status " + status
	if status != "pr_open" {
		return ev, fmt.Errorf("the PR was not recorded")
	}
	_, _ = w.Tmux(view, "send-keys", "o")
	var argv []byte
	world.WaitFor(10*time.Second, func() bool { argv, _ = os.ReadFile(browserLog); return len(argv) > 0 })
	ev += fmt.Sprintf("\no: $BROWSER argv %q; %s", strings.TrimSpace(string(argv)), grepLine(w.Screen(view), "opened PR"))
	if string(argv) != "https://github.com/o/r/pull/42\n" {
		return ev, fmt.Errorf("o: $BROWSER got %q, want only the URL", argv)
	}
	// A PR whose URL is an option for the browser (another host's lines,
	// a gh stand-in, a hand-made lanes pr gave one): o refuses it, says
	// so, and starts no browser (issue 30, item 3).
	_ = os.Remove(browserLog)
	hostile := "--renderer-cmd-prefix=touch " + filepath.Join(w.Root, "pwned")
	if r := w.Lanes("", "pr", "api", "--number", "43", "--ci", "failing", "--url="+hostile); r.Code != 0 {
		return ev, fmt.Errorf("lanes pr --url: exit %d %s", r.Code, r.Stderr)
	}
	if !shows("#43") {
		return ev, fmt.Errorf("the board never showed PR #43:\n%s", w.Screen(view))
	}
	_, _ = w.Tmux(view, "send-keys", "o")
	if !shows("not opening PR #43") {
		return ev, fmt.Errorf("o on a PR whose URL is an option said nothing:\n%s", w.Screen(view))
	}
	ev += "\no on --renderer-cmd-prefix=…: " + grepLine(w.Screen(view), "not opening")
	if _, err := os.Stat(browserLog); err == nil {
		return ev, fmt.Errorf("o started the browser with a URL that is an option")
	}
	return ev, nil
}

// gitOutput is git's trimmed output in dir, with no configuration of the user's.
func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}
