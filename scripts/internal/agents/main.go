// Command agents runs the real coding agents (Claude Code, Codex, Gemini CLI,
// OpenCode) under lanes against the scripted model server, drives each
// through the scenarios a human lives through (a tool, a dialog approved or
// rejected, an interrupt, an API error, a subagent, a question, /compact,
// /exit, kill -9, lanes restart), and checks the card walk `lanes ls --json`
// shows against docs/design.md. Run it through scripts/agents; AGENTS.md has
// the last table.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/modelserver"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "tap" {
		os.Exit(tapMain(os.Args[2:]))
	}
	only := flag.String("agent", "", "run only this agent (claude, codex, gemini, opencode, qwen, pi)")
	sub := flag.String("run", "", "run only the scenarios whose agent/scenario contains this text")
	quick := flag.Bool("quick", false, "Claude and Codex, the core scenarios, shorter tool runs: for CI")
	record := flag.Bool("record", false, "write fixtures to testdata/real/harness/<agent>/<scenario>/")
	keep := flag.Bool("keep", false, "leave each world (tmux server, HOME, state) for inspection")
	cacheFlag := flag.String("cache", "", "where the agents are installed (default $LANES_AGENTS_CACHE, else ~/.cache/lanes/agents/<hash of the pins>)")
	camp := flag.Bool("campaign", false, "random sequences of human actions, every card judged (issue 37), instead of the scenarios")
	seedFlag := flag.Uint64("seed", 0, "with --campaign: the random seed (default: from the clock, printed)")
	steps := flag.Int("steps", 0, "with --campaign: stop each agent after this many steps (default: when --minutes are up)")
	minutes := flag.Float64("minutes", 5, "with --campaign: how long each agent's campaign runs")
	replay := flag.String("replay", "", "with --campaign: run a case file's moves (testdata/campaign/…) instead of random ones")
	picture := flag.String("picture", "", "draw the README's picture of the board (real Claude Code sessions, one per lane) into DIR/board-dark.svg and board-light.svg, and exit")
	showVersions := flag.Bool("versions", false, "print each agent's pinned, installed, recorded and registry version, and exit (installs nothing)")
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), `usage: scripts/agents [--quick] [--agent A] [--run TEXT] [--record] [--keep] [--cache DIR]
       scripts/agents --campaign [--agent A] [--seed S] [--steps N] [--minutes M] [--replay CASE]
       scripts/agents --versions
       scripts/agents --picture docs

Runs the real Claude Code, Codex, Gemini CLI, OpenCode, Qwen Code and pi under lanes against a
scripted local model server (no network but 127.0.0.1) and checks each
scenario's card walk; prints a table and exits 1 when a row FAILs (AGENTS.md).

Needs Go, tmux, node and npm. On first use it installs the agents pinned in
scripts/internal/agents/package.json with npm into the cache dir (about 1.1 GB,
30 s, from the npm registry); --cache may name an npm prefix that already has
them. A full run takes about 25 minutes on 2 cores, --quick about 3.

--campaign plays random human actions against each agent in turn (or --agent)
for --minutes each and judges every card against what the harness knows was
true; a violation prints the seed, the sequence and the card's history, writes
a case under testdata/campaign/, and exits 1. --replay runs a case again.

`)
		flag.PrintDefaults()
	}
	flag.Parse()

	cache := *cacheFlag
	if cache == "" {
		var err error
		if cache, err = defaultCache(); err != nil {
			fail(err)
		}
	}
	cache, _ = filepath.Abs(cache)
	if *showVersions {
		if err := printVersions(cache); err != nil {
			fail(err)
		}
		return
	}
	seed, err := install(cache)
	if err != nil {
		fail(err)
	}
	vs, _ := versions()
	fmt.Printf("agents: cache %s; %s\n", cache, pinList(vs))

	chosen := agents
	if *quick {
		turnDeadline = 45 * time.Second
		chosen = slices.DeleteFunc(slices.Clone(agents), func(a agent) bool { return !a.quick })
	}
	if *only != "" {
		a, ok := findAgent(*only)
		if !ok {
			names := make([]string, len(agents))
			for i, a := range agents {
				names[i] = a.name
			}
			fail(fmt.Errorf("unknown agent %q: want one of %s", *only, strings.Join(names, ", ")))
		}
		chosen = []agent{a}
	}

	// Worlds go under the user's cache dir, not /tmp: Gemini CLI skips a
	// settings file (lanes' injected hooks) under a world-writable dir.
	if err := privateTemp(); err != nil {
		fail(err)
	}
	srv := modelserver.New()
	base, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	defer srv.Close()
	self, err := os.Executable()
	if err != nil {
		fail(fmt.Errorf("finding this program for the tap hooks: %w", err))
	}
	cfg := config{cache: cache, seed: seed, srv: srv, base: base, self: self,
		quick: *quick, record: *record, keep: *keep}

	if *picture != "" {
		if err := pictures(cfg, *picture); err != nil {
			fail(err)
		}
		return
	}
	if *camp {
		o := campaignOpts{seed: *seedFlag, steps: *steps, minutes: time.Duration(*minutes * float64(time.Minute)), replay: *replay}
		os.Exit(campaigns(cfg, chosen, o))
	}
	start := time.Now()
	var rows []row
	for _, a := range chosen {
		for _, sc := range selectScenarios(*quick, "") {
			if !strings.Contains(a.name+"/"+sc.name, *sub) || *quick && sc.quickOnly != "" && sc.quickOnly != a.name {
				continue
			}
			rw := runOne(cfg, a, sc)
			fmt.Println(rw.line())
			rows = append(rows, rw)
		}
	}
	if *record {
		if err := writeReadme(vs); err != nil {
			fail(err)
		}
	}
	failed := report(rows, vs, time.Since(start))
	if failed > 0 {
		os.Exit(1)
	}
}

func pinList(vs [][2]string) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v[0]+"@"+v[1])
	}
	return strings.Join(parts, ", ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "agents:", err)
	os.Exit(2)
}

// tapMain is the tap hook --record adds to the agent's config in the
// private HOME: `agents tap EVENT FILE` appends {"event", "payload"} with the
// payload the agent gave on stdin, unchanged but for whitespace.
func tapMain(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: agents tap EVENT FILE")
		return 2
	}
	in, err := readAll(os.Stdin)
	if err != nil || !json.Valid(in) {
		in, _ = json.Marshal(string(in))
	}
	line, _ := json.Marshal(map[string]json.RawMessage{"event": mustJSON(args[0]), "payload": json.RawMessage(in)})
	f, err := os.OpenFile(args[1], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return 0 // never fail the agent's hook
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n'))
	return 0
}

func readAll(f *os.File) ([]byte, error) {
	var out []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, nil
		}
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// privateTemp points TMPDIR (where each world and its state dir are made)
// at <user cache>/lanes/agents-runs, whose parents no other user can write.
func privateTemp() error {
	base, err := os.UserCacheDir()
	if err != nil {
		return fmt.Errorf("finding a private dir for the worlds: %w", err)
	}
	dir := filepath.Join(base, "lanes", "agents-runs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s for the worlds: %w", dir, err)
	}
	return os.Setenv("TMPDIR", dir)
}
