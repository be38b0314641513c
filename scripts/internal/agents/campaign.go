package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
)

// The randomized campaign (issue 37): random sequences of human actions
// against one real agent in a lanes session, with the board running, and
// every card sampled judged against what the harness knows was true
// (truth.go). A violation stops the agent's campaign, prints the seed, the
// step, the whole sequence and lanes' record history, and writes the case
// under testdata/campaign/, which --replay runs again.

// campaignOpts are the --campaign flags.
type campaignOpts struct {
	seed    uint64
	steps   int           // 0: as many as fit in minutes
	minutes time.Duration // per agent
	replay  string        // a case file: its moves, not random ones
}

// campaignCase is a replayable case: the moves up to the violation.
type campaignCase struct {
	Agent     string `json:"agent"`
	Version   string `json:"version"`
	Seed      uint64 `json:"seed"`
	Step      int    `json:"step"`
	Violation string `json:"violation"`
	Moves     []move `json:"moves"`
}

type campaign struct {
	r      *run
	a      agent
	rng    *rand.Rand
	tl     timeline
	f      facts
	moves  []move
	starts []time.Time // when each move began
	alive  bool
	asks   int // ask moves so far (askCommand)
}

// campaignResult is one agent's campaign.
type campaignResult struct {
	agent     string
	steps     int
	took      time.Duration
	violation string // "" when none
	err       error  // the harness could not go on (not a verdict on lanes)
}

func (cr campaignResult) line() string {
	verdict := "PASS"
	switch {
	case cr.violation != "":
		verdict = "FAIL"
	case cr.err != nil:
		verdict = "ERROR"
	}
	s := fmt.Sprintf("%-6s %-8s campaign %4d steps in %s", verdict, cr.agent, cr.steps, cr.took.Round(time.Second))
	if cr.violation != "" {
		s += "\n       " + cr.violation
	}
	if cr.err != nil {
		s += "\n       " + cr.err.Error()
	}
	return s
}

// campaigns runs each agent's campaign in turn; it returns the exit code.
func campaigns(cfg config, chosen []agent, o campaignOpts) int {
	if o.seed == 0 && o.replay == "" {
		o.seed = uint64(time.Now().UnixNano())
	}
	code := 0
	for _, a := range chosen {
		if o.replay != "" {
			cs, err := readCase(o.replay)
			if err != nil {
				fail(err)
			}
			if cs.Agent != a.name {
				continue
			}
		}
		if o.replay != "" {
			fmt.Printf("campaign %s: replaying %s\n", a.name, o.replay)
		} else {
			fmt.Printf("campaign %s: seed %d, %s\n", a.name, o.seed, o.minutes)
		}
		cr := runCampaign(cfg, a, o)
		fmt.Println(cr.line())
		if cr.violation != "" || cr.err != nil {
			code = 1
		}
	}
	return code
}

// runCampaign runs one agent's campaign in a world of its own.
func runCampaign(cfg config, a agent, o campaignOpts) (cr campaignResult) {
	cr.agent = a.name
	start := time.Now()
	defer func() { cr.took = time.Since(start) }()
	var script []move
	if o.replay != "" {
		cs, err := readCase(o.replay)
		if err != nil {
			cr.err = err
			return cr
		}
		script, o.seed = cs.Moves, cs.Seed
	}
	w, err := world.New(".")
	if err != nil {
		w.Close()
		cr.err = fmt.Errorf("setting up the world: %w", err)
		return cr
	}
	r := &run{a: a, w: w, srv: cfg.srv, key: a.name + "-campaign-" + randHex(),
		name: "agent-campaign", quick: cfg.quick, screens: map[string]string{}}
	defer func() {
		r.stopSampler()
		r.killAgents()
		w.Close()
	}()
	if err := r.setUp(cfg, scenario{name: "campaign", env: []string{retryEnv}}, texts); err != nil {
		cr.err = err
		return cr
	}
	view := w.Socket + "-board"
	if err := w.StartBoard(view, 120, 40); err != nil {
		cr.err = err
		return cr
	}
	c := &campaign{r: r, a: a, rng: rand.New(rand.NewPCG(o.seed, 37)), alive: true}
	c.tl.add(idleTruth(time.Now(), allowHook, c.f))
	end, from := start.Add(o.minutes), time.Now()
	for i := 0; ; i++ {
		if script != nil && i >= len(script) || script == nil && (o.steps > 0 && i >= o.steps || o.steps == 0 && time.Now().After(end)) {
			break
		}
		mv := c.next()
		if script != nil {
			mv = script[i]
		}
		c.moves, c.starts = append(c.moves, mv), append(c.starts, from)
		err := c.play(mv)
		if err == nil {
			c.dwell()
		}
		to := time.Now()
		cr.steps = i + 1
		fmt.Printf("       step %3d %-28s %s\n", i+1, mv, walkSince(r, from))
		if v := c.tl.judge(r.snapshot(), from, to); v != nil {
			cr.violation = c.report(cfg, o.seed, i+1, v.String(), view)
			return cr
		}
		if err != nil {
			var cv *caseViolation
			if errors.As(err, &cv) {
				cr.violation = c.report(cfg, o.seed, i+1, cv.Error(), view)
				return cr
			}
			cr.err = fmt.Errorf("step %d %s: %w\n%s", i+1, mv, err, indent(tail(r.screen, 12)))
			return cr
		}
		from = to
	}
	return cr
}

// dwell waits until the latest truth's allowance has passed and the
// card has been sampled under it, so each move is judged settled and the
// next starts from what the card says now.
func (c *campaign) dwell() {
	if len(c.tl.ts) == 0 {
		return
	}
	t := c.tl.ts[len(c.tl.ts)-1]
	time.Sleep(time.Until(t.from.Add(t.allow + 3*sampleEvery)))
}

// caseViolation is a rule broken outside the card walk (send typed into a
// dialog, say): a violation, not a harness error.
type caseViolation struct{ what string }

func (v *caseViolation) Error() string { return v.what }

func violated(format string, a ...any) error { return &caseViolation{fmt.Sprintf(format, a...)} }

// snapshot is a copy of the samples so far.
func (r *run) snapshot() []sample {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sample(nil), r.samples...)
}

// walkSince is the card's walk from t, as the scenarios print it.
func walkSince(r *run, t time.Time) string {
	var parts []string
	prev := ""
	for _, s := range r.snapshot() {
		if !s.ok || s.at.Before(t) {
			continue
		}
		if l := label(s.s); l != prev {
			parts = append(parts, fmt.Sprintf("%s %.1fs", l, s.at.Sub(t).Seconds()))
			prev = l
		}
	}
	return strings.Join(parts, " → ")
}

// report prints what a person needs to see the violation, and writes the
// replayable case.
func (c *campaign) report(cfg config, seed uint64, step int, what, view string) string {
	r := c.r
	fmt.Printf("VIOLATION %s seed %d step %d: %s\n", c.a.name, seed, step, what)
	for i, mv := range c.moves {
		fmt.Printf("       %3d %s\n", i+1, mv)
	}
	first := c.starts[max(0, step-3)]
	fmt.Printf("       the card's walk from step %d: %s\n", max(1, step-2), walkSince(r, first))
	fmt.Println("       events:", strings.Join(r.events(r.latest().ID), " "))
	// H on the board: lanes' own record history of the card.
	_, _ = r.w.Tmux(view, "send-keys", "H")
	time.Sleep(time.Second)
	fmt.Println("       the board's history (H), newest first:\n" + indent(head(r.w.Screen(view), 30)))
	fmt.Println("       the pane:\n" + indent(tail(r.capture(""), 20)))
	vs, _ := versions()
	cs := campaignCase{Agent: c.a.name, Version: versionOf(vs, c.a.name), Seed: seed, Step: step, Violation: what, Moves: c.moves}
	path := filepath.Join("testdata", "campaign", fmt.Sprintf("%s-%d-%d.json", c.a.name, seed, step))
	if b, err := json.MarshalIndent(cs, "", "  "); err == nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil && os.WriteFile(path, append(b, '\n'), 0o644) == nil {
			fmt.Printf("       case: %s (scripts/agents --campaign --replay %s)\n", path, path)
		}
	}
	return fmt.Sprintf("step %d %s: %s (seed %d)", step, c.moves[step-1], what, seed)
}

// head is s's first n lines that are not blank.
func head(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Trim(l, " ┃") != "" && len(lines) < n {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	return strings.Join(lines, "\n")
}

func readCase(path string) (campaignCase, error) {
	var cs campaignCase
	b, err := os.ReadFile(path)
	if err != nil {
		return cs, fmt.Errorf("reading the case: %w", err)
	}
	if err := json.Unmarshal(b, &cs); err != nil {
		return cs, fmt.Errorf("parsing the case %s: %w", path, err)
	}
	if len(cs.Moves) == 0 {
		return cs, fmt.Errorf("the case %s has no moves", path)
	}
	return cs, nil
}

// versionOf is the installed version of the agent's package.
func versionOf(vs [][2]string, name string) string {
	for _, v := range vs {
		if strings.Contains(v[0], name) {
			return v[1]
		}
	}
	return ""
}

// assign gives the model server the turns for the next move, with texts
// after them for whatever else the agent asks.
func (c *campaign) assign(turns ...modelserver.Turn) error {
	return c.r.srv.Assign(c.r.key, modelserver.Scenario{Name: c.r.key, Turns: append(turns, texts...)})
}
