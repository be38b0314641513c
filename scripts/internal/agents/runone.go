package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

type config struct {
	cache, seed string
	srv         *modelserver.Server
	base, self  string
	quick       bool
	record      bool
	keep        bool
}

// row is one agent × scenario result.
type row struct {
	agent, scenario string
	verdict         string // PASS, FAIL, CANNOT
	why             string
	walk            string
	took            time.Duration
	spoolLines      int
	events          []string
	hook, witness   []time.Duration
	notes           []string
}

func (rw row) line() string {
	s := fmt.Sprintf("%-6s %-8s %-10s %5.0fs  %s", rw.verdict, rw.agent, rw.scenario, rw.took.Seconds(), rw.walk)
	if rw.why != "" {
		s += "\n       " + rw.why
	}
	for _, n := range rw.notes {
		s += "\n       note: " + n
	}
	return s
}

// runOne runs scenario sc with agent a in a fresh world and tears it down.
func runOne(cfg config, a agent, sc scenario) (rw row) {
	rw = row{agent: a.name, scenario: sc.name}
	start := time.Now()
	defer func() { rw.took = time.Since(start) }()
	if sc.asks && a.asks == nil {
		rw.verdict, rw.why = "CANNOT", a.name+" asks nothing before a call: it has no permission dialog"
		return rw
	}
	turns, why := sc.turns(a, cfg.quick)
	if turns == nil {
		rw.verdict, rw.why = "CANNOT", why
		return rw
	}
	w, err := world.New(".")
	if err != nil {
		w.Close()
		rw.verdict, rw.why = "FAIL", "setting up the world: "+err.Error()
		return rw
	}
	r := &run{a: a, w: w, srv: cfg.srv, key: a.name + "-" + sc.name + "-" + randHex(),
		name: "agent-" + sc.name, quick: cfg.quick, screens: map[string]string{}}
	if sc.adopt {
		r.name = "proj" // adopted: named after its dir
	}
	defer func() {
		r.stopSampler()
		if cfg.keep {
			r.keepModelLog()
			fmt.Printf("       kept: tmux -L %s attach -t lanes-%s   (HOME %s, state %s; kill with: tmux -L %s kill-server; rm -rf %s)\n",
				w.Socket, r.name, w.Home, w.State, w.Socket, w.Root)
			return
		}
		r.killAgents()
		w.Close()
	}()
	err = r.setUp(cfg, sc, turns)
	if err == nil {
		err = sc.drive(r)
	}
	rw.walk = r.walk()
	if id := r.latest().ID; id != "" {
		rw.spoolLines, rw.events = len(r.spoolLines(id)), r.events(id)
		rw.hook = r.hookLatencies(id)
		if cfg.record {
			if rerr := r.recordFixtures(sc.name, id); rerr != nil && err == nil {
				err = rerr
			}
		}
	}
	rw.witness, rw.notes = r.witness, r.notes
	switch {
	case errors.Is(err, errCannot):
		rw.verdict, rw.why = "CANNOT", strings.TrimPrefix(err.Error(), errCannot.Error()+": ")
	case err != nil:
		rw.verdict, rw.why = "FAIL", err.Error()+"\n       model requests: "+r.requests()+"\n"+indent(tail(r.screen, 12))
	default:
		rw.verdict = "PASS"
	}
	return rw
}

// setUp writes the agent's private HOME, starts the world's tmux server
// with the agent's environment, runs `lanes new` and waits for the prompt.
func (r *run) setUp(cfg config, sc scenario, turns []modelserver.Turn) error {
	if err := r.srv.Assign(r.key, modelserver.Scenario{Name: r.key, Turns: turns}); err != nil {
		return err
	}
	h := &home{dir: r.w.Home, proj: filepath.Join(r.w.Root, "proj"), tmp: filepath.Join(r.w.Root, "tmp"),
		seed: cfg.seed, self: cfg.self}
	if cfg.record {
		h.tap = filepath.Join(r.w.Root, "tap.jsonl")
	}
	for _, d := range []string{h.proj, h.tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if sc.worktree {
		if err := gitRepo(h.proj); err != nil {
			return err
		}
	}
	url := r.srv.URL(r.key)
	if err := r.a.files(h, url); err != nil {
		return fmt.Errorf("writing %s's config: %w", r.a.name, err)
	}
	bin := filepath.Join(r.w.Root, "bin")
	path := filepath.Join(cfg.cache, "node_modules", ".bin")
	if r.a.name == "opencode" {
		if err := opencodeWrapper(bin, filepath.Join(path, "opencode"), cfg.seed); err != nil {
			return err
		}
	}
	r.w.Extra = append([]string{"PATH=" + bin + ":" + path + ":" + os.Getenv("PATH")}, r.a.env(h, url)...)
	r.w.Extra = append(r.w.Extra, sc.env...) // later wins
	if err := r.w.StartServer(); err != nil {
		return fmt.Errorf("starting the private tmux server: %w", err)
	}
	if out, err := r.w.Tmux(r.w.Socket, "set-option", "-g", "default-size", "120x40"); err != nil {
		return fmt.Errorf("sizing the private tmux server: %v %s", err, out)
	}
	r.startSampler()
	dir := h.proj
	if sc.untrusted {
		// A repository of the user's the agent never opened.
		dir = filepath.Join(r.w.Root, "fresh")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		if err := gitRepo(dir); err != nil {
			return err
		}
	}
	args := []string{"new", r.name, "--agent", r.a.name, "--dir", dir}
	if sc.worktree {
		args = append(args, "--worktree")
	}
	agentArgs := r.a.args
	if sc.untrusted {
		// As a user's first run: Codex asks to review lanes' injected
		// hooks (the harness otherwise passes its bypass flag).
		agentArgs = slices.DeleteFunc(slices.Clone(agentArgs), func(a string) bool { return a == "--dangerously-bypass-hook-trust" })
	}
	if sc.mode {
		agentArgs = r.a.mode
	}
	if sc.plan {
		agentArgs = r.a.plan
	}
	args = append(append(args, "--"), agentArgs...)
	r.newArgs, r.started = args, time.Now()
	if sc.adopt {
		if err := r.startOutside(h); err != nil {
			return err
		}
	} else {
		if res := r.w.Lanes("", args...); res.Code != 0 {
			return fmt.Errorf("lanes new: exit %d: %s", res.Code, res.Stderr)
		}
		out, err := r.w.Tmux(r.w.Socket, "list-panes", "-s", "-t", "=lanes-"+r.name, "-F", "#{pane_id}")
		if err != nil {
			return fmt.Errorf("finding the agent's pane: %v %s", err, out)
		}
		r.pane = strings.TrimSpace(out)
	}
	if sc.untrusted || sc.worktree {
		return nil // the scenario meets the trust question, if asked
	}
	if err := r.waitReady(120 * time.Second); err != nil {
		return err
	}
	r.capture("ready")
	return nil
}

func randHex() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func tail(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "         | " + strings.ReplaceAll(s, "\n", "\n         | ")
}

// killAgents SIGKILLs every pane's process tree: Gemini CLI outlives the
// SIGHUP of tmux kill-server, and would run on after the world is gone.
func (r *run) killAgents() {
	out, err := r.w.Tmux(r.w.Socket, "list-panes", "-a", "-F", "#{pane_pid}")
	if err != nil {
		return
	}
	for _, f := range strings.Fields(out) {
		var pid int
		if _, err := fmt.Sscan(f, &pid); err == nil && pid > 1 {
			killTree(pid)
		}
	}
}
