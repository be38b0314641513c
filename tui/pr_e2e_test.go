package tui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ghAnswer is one PR as gh pr list --json prints it (testdata/gh/README.md).
func ghAnswer(number int, head, state, review, mergeable, conclusion string) string {
	return fmt.Sprintf(`[{"number":%d,"state":%q,"isDraft":false,"reviewDecision":%q,"mergeable":%q,`+
		`"baseRefName":"main","headRefName":%q,"url":"https://github.com/acme/shop/pull/%d","updatedAt":%q,`+
		`"isCrossRepository":false,"statusCheckRollup":[{"__typename":"CheckRun","name":"test","status":"COMPLETED","conclusion":%q}]}]`,
		number, state, review, mergeable, head, number, time.Now().UTC().Format(time.RFC3339), conclusion)
}

// The running board follows a PR on GitHub by itself: a gh stand-in on
// PATH answers from a file the test rewrites, and the card moves lane —
// In review, Ready to merge, Needs you when it conflicts, Done as Merged
// once it merges after the session was killed.
func TestE2EPRsFromGitHub(t *testing.T) {
	bin := t.TempDir()
	answer := filepath.Join(bin, "answer.json")
	// The answer changes under a gh that may be reading it: whole, by a
	// rename (rewritten in place, a read between the truncation and the
	// write found it empty, a failed read, and the poller waited 5 min).
	setAnswer := func(s string) {
		t.Helper()
		tmp := answer + ".new"
		if err := os.WriteFile(tmp, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, answer); err != nil {
			t.Fatal(err)
		}
	}
	setAnswer("[]")
	gh := "#!/bin/sh\ncat '" + answer + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(gh), 0o700); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "shop")
	for _, args := range [][]string{{"init", "-q", "-b", "main", dir}, {"-C", dir, "commit", "-q", "--allow-empty", "-m", "start"},
		{"-C", dir, "checkout", "-q", "-b", "fix-cart"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=lanes", "-c", "user.email=lanes@example.test"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	e := startBoard(t, 160, 40, "PATH="+bin+":"+os.Getenv("PATH"), "LANES_PR_EVERY=5s")
	e.lanes("new", "shop", "--dir", dir, "--", "sh", "-c", "sleep 3600")
	e.waitScreen("shop idle", func(s string) bool { return strings.Contains(s, "○ Idle · 1") })

	for _, step := range []struct {
		answer, lane, badge string
	}{
		{ghAnswer(42, "fix-cart", "OPEN", "REVIEW_REQUIRED", "MERGEABLE", "SUCCESS"), "In review", "◐ Review"},
		{ghAnswer(42, "fix-cart", "OPEN", "APPROVED", "MERGEABLE", "SUCCESS"), "Ready to merge", "⇡ Mergeable"},
		{ghAnswer(42, "fix-cart", "OPEN", "APPROVED", "CONFLICTING", "SUCCESS"), "Needs you", "≠ Conflicts"},
	} {
		setAnswer(step.answer)
		start := time.Now()
		// The poller reads every 5 s: the card moves within one read
		// and a cycle; 20 s leaves room for a loaded machine.
		e.waitScreenWithin(20*time.Second, "shop in "+step.lane+" as "+step.badge, func(s string) bool {
			return laneOf(s, "shop") == step.lane && strings.Contains(s, step.badge)
		})
		t.Logf("gh answer → card in %s: %v", step.lane, time.Since(start).Round(10*time.Millisecond))
	}
	e.lanes("kill", "shop")
	e.waitLane("shop", "Done")
	setAnswer(ghAnswer(42, "fix-cart", "MERGED", "APPROVED", "UNKNOWN", "SUCCESS"))
	e.waitScreenWithin(20*time.Second, "shop merged after its kill", func(s string) bool { return laneOf(s, "shop") == "Done" && strings.Contains(s, "★ Merged") })
	if out := e.lanes("ls", "--json", "--all"); !strings.Contains(out, `"status": "merged"`) && !strings.Contains(out, `"status":"merged"`) {
		t.Errorf("ls --json after the merge:\n%s", out)
	}
}
