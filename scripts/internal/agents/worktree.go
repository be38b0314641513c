package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
	"lanes/state"
)

// The worktree scenario (docs/design.md §12): `lanes new --worktree` in a
// real repository, under a running board; the agent makes a branch of its
// own, commits and leaves a file changed. ls --json must then show the
// live branch (read from the HEAD file), and the board's git poller the
// commit ahead of the base and the changed files.
func init() {
	scenarios = append(scenarios, scenario{name: "worktree", worktree: true, turns: worktreeTurns, drive: worktreeRuns})
}

const wtBranch = "feature/from-agent"

func worktreeTurns(a agent, _ bool) ([]m.Turn, string) {
	cmd := "git checkout -q -b " + wtBranch + " && echo one > one.txt && git add one.txt && git commit -qm one && echo two > two.txt"
	call := a.quiet
	if a.asks != nil {
		call = a.asks(cmd)
	} else {
		call.Input, _ = json.Marshal(map[string]string{"command": cmd}) // its shell tool (pi's bash), which asks nothing
	}
	return append([]m.Turn{{m.Step{Tool: &call}}}, texts...), ""
}

// gitRepo makes dir a repository with one commit and an identity of its
// own (the agent commits there; worktrees share the repository's config).
func gitRepo(dir string) error {
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "lanes harness"},
		{"config", "user.email", "harness@lanes.invalid"},
		{"commit", "-q", "--allow-empty", "-m", "start"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(cmd.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

func worktreeRuns(r *run) error {
	if err := r.trustIfAsked(); err != nil {
		return err
	}
	s := r.latest()
	if s.Worktree == nil || s.Branch != "lanes/"+r.name {
		return fmt.Errorf("lanes new --worktree: ls --json has worktree %v, branch %q; want a path and lanes/%s", s.Worktree, s.Branch, r.name)
	}
	view := "lanes-view-" + randHex()
	if err := r.w.StartBoard(view, 140, 40); err != nil {
		return err
	}
	defer r.w.Tmux(view, "kill-server")
	if r.a.asks != nil {
		if err := asked(r); err != nil {
			return err
		}
		if err := r.press(r.a.approve); err != nil {
			return err
		}
	} else if err := r.prompt("Make the branch."); err != nil {
		return err
	}
	if err := idleAfter(r, "branch made and committed"); err != nil {
		return err
	}
	r.capture("committed")
	start := time.Now()
	if _, err := r.expect("the agent's branch, one commit ahead, files changed", 90*time.Second, func(s world.Session) bool {
		return s.Branch == wtBranch && s.Ahead != nil && *s.Ahead == 1 && s.Changed != nil && *s.Changed >= 1
	}); err != nil {
		return fmt.Errorf("%w (ls: branch %q ahead %v changed %v; board:\n%s)", err, r.latest().Branch, ptr(r.latest().Ahead), ptr(r.latest().Changed), indent(tail(r.w.Screen(view), 12)))
	}
	r.notes = append(r.notes, fmt.Sprintf("branch, ahead and changed on ls --json %.1fs after the turn ended", time.Since(start).Seconds()))
	// The board draws what it read at its next cycle.
	if !world.Poll(5*time.Second, 200*time.Millisecond, func() bool { return strings.Contains(r.w.Screen(view), "↑1") }) {
		return fmt.Errorf("the board's card shows no ↑1 within 5 s:\n%s", indent(tail(r.w.Screen(view), 40)))
	}
	return nil
}

func ptr(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// The trust scenario: the session starts in a folder the agent was never
// told to trust (a fresh worktree is one, to Gemini CLI), so before any
// hook the agent asks whether to trust it. The card must say the agent
// needs its human, and leave Needs you once the folder is trusted.
func init() {
	scenarios = append(scenarios, scenario{name: "trust", untrusted: true, turns: allTexts, drive: trustRuns})
}

func trustRuns(r *run) error {
	if err := r.trustQuestion(); err != nil {
		return err
	}
	return afterwards(r)
}

func (r *run) trustQuestion() error {
	if len(lanesMarkers(state.Agent(r.a.name)).Trust) == 0 {
		_ = r.waitScreen("the prompt", 30*time.Second, r.a.ready)
		return cannot("%s asks no trust question lanes knows; its screen:\n%s", r.a.name, indent(tail(r.capture(""), 30)))
	}
	asked, err := r.trustAsked()
	if err != nil {
		return err
	}
	if !asked {
		return fmt.Errorf("%s showed its prompt, not the trust question", r.a.name)
	}
	return r.trusted()
}

// trustAsked waits for the agent's prompt or its trust question, and says
// which showed.
func (r *run) trustAsked() (bool, error) {
	trust := lanesMarkers(state.Agent(r.a.name)).Trust
	end := time.Now().Add(120 * time.Second)
	for {
		if err := r.waitScreen("the prompt or the trust question", time.Until(end), append(slices.Clone(r.a.ready), trust...)); err != nil {
			return false, err
		}
		if hasAny(r.screen, trust) {
			return true, nil
		}
		// Gemini CLI draws its prompt a moment before the question over
		// it, Codex a few seconds before: the prompt holds for 6 s.
		if len(trust) == 0 {
			return false, nil
		}
		if !world.Poll(6*time.Second, 250*time.Millisecond, func() bool { return hasAny(r.capture(""), trust) }) {
			return false, nil
		}
	}
}

// trustIfAsked answers the trust question when the agent asks it, as
// trust does, and waits for the prompt.
func (r *run) trustIfAsked() error {
	asked, err := r.trustAsked()
	if err != nil || !asked {
		return cmp.Or(err, r.waitReady(120*time.Second))
	}
	return r.trusted()
}

// trusted: the trust question shows; the card must be Needs you, and once
// Enter trusts the folder, Idle at the agent's prompt.
func (r *run) trusted() error {
	r.capture("trust")
	if _, err := r.expect("asks trust → needs_input", 15*time.Second, func(s world.Session) bool {
		return s.Activity == "waiting_input" && s.Zone == "needs_you" && s.Question != nil && strings.Contains(*s.Question, "Trust this folder")
	}); err != nil {
		return err
	}
	r.notes = append(r.notes, fmt.Sprintf("Needs you %.1fs after lanes new", time.Since(r.started).Seconds()))
	if err := r.press(cmp.Or(r.a.trust, "Enter")); err != nil {
		return err
	}
	// Codex then asks to review the hooks it has not run (lanes' injected
	// ones, without the bypass flag): Needs you again, until "Trust all".
	if review := lanesMarkers(state.Agent(r.a.name)).HookReview; len(review) > 0 &&
		world.Poll(10*time.Second, 250*time.Millisecond, func() bool { return hasAny(r.capture(""), review) }) {
		r.capture("hooks")
		if _, err := r.expect("asks to review hooks → needs_input", 15*time.Second, func(s world.Session) bool {
			return s.Activity == "waiting_input" && s.Zone == "needs_you" && s.Question != nil && strings.Contains(*s.Question, "hooks")
		}); err != nil {
			return err
		}
		r.notes = append(r.notes, fmt.Sprintf("hook review: Needs you %.1fs after lanes new", time.Since(r.started).Seconds()))
		if err := r.press("Down Enter"); err != nil { // 2. Trust all and continue
			return err
		}
	}
	if err := r.waitReady(60 * time.Second); err != nil {
		return err
	}
	_, err := r.expect("trusted → idle", 15*time.Second, idle)
	return err
}
