package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"lanes/tmux"
)

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// goBench runs a go test benchmark, with env added to its environment,
// and hands each result line's metrics (unit → value) to report.
func goBench(what, pkg, pattern, benchtime string, env []string, report func(name string, metrics map[string]float64)) {
	args := []string{"test", "-run", "^$", "-bench", pattern, "-benchmem"}
	if benchtime != "" {
		args = append(args, "-benchtime", benchtime)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fail(fmt.Errorf("%s benchmark: %v\n%s", what, err, out))
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		metrics := map[string]float64{}
		for i := 0; i+1 < len(f); i += 2 {
			v, _ := strconv.ParseFloat(f[i], 64)
			metrics[f[i+1]] = v
		}
		report(m[1], metrics)
	}
}

func benchCycle(name string, m map[string]float64) {
	// BenchmarkCycle/sessions=N/exec or …/control
	f := strings.Split(strings.TrimPrefix(name, "BenchmarkCycle/sessions="), "/")
	if len(f) != 2 {
		return
	}
	n, way := f[0], f[1]
	how := map[string]string{"exec": "a tmux client per read", "control": "over a control-mode client"}[way]
	// The board reads over a control client only on a tmux that survives
	// one (tmux.ControlCrash); elsewhere its way is a client per read.
	board := way == "control"
	if tmux.ControlCrash(strings.TrimPrefix(tmuxVersion(), "tmux ")) != "" {
		board = way == "exec"
	}
	if board {
		how += ", the board's way with this tmux"
	}
	ms := m["ns/op"] / 1e6
	budget, ok := "one tmux read", true
	switch n {
	case "100":
		budget, ok = "≤ 15 ms", ms <= 15
	case "1000":
		// The budget is the board's cycle, which runs every second; a
		// command's one cycle is inside its own figure (ls --json).
		budget, ok = "≤ 25 ms", ms <= 25
		if !board {
			budget, ok = "— (not the board's way here)", true
		}
	}
	add(fmt.Sprintf("collector cycle, %s sessions, %s (wall, CPU)", n, how), budget, fmt.Sprintf("%.2f ms, CPU %.2f ms", ms, m["cpu-ms/op"]), ok)
}

// benchWitness is the cycle at 50 sessions with none and with all of them
// in a dialog: the witness's captures per cycle (a count: hard) and what
// they add to the cycle's wall time.
func benchWitness() {
	got := map[string]map[string]float64{}
	goBench("witness", "./internal/cli", "^BenchmarkWitness$", "30x", nil, func(name string, m map[string]float64) {
		got[name[strings.LastIndexByte(name, '=')+1:]] = m
	})
	none, all := got["0"], got["50"]
	if none == nil || all == nil {
		fail(fmt.Errorf("witness benchmark: no result for %v", got))
	}
	addHard("witness: captures per cycle, 50 sessions in a dialog", "≤ 4",
		fmt.Sprintf("%.1f on average, %.0f at most", all["captures/op"], all["max-captures/op"]), all["max-captures/op"] <= 4)
	growth := (all["ns/op"]/none["ns/op"] - 1) * 100
	add("witness: cycle wall time, 50 sessions in a dialog vs none", "≤ +20 %",
		fmt.Sprintf("%+.0f %% (%.2f ms vs %.2f ms)", growth, all["ns/op"]/1e6, none["ns/op"]/1e6), growth <= 20)
	add("reference: the hook-only cycle that applies the 4 captures (woken by them)", "—",
		fmt.Sprintf("%.2f ms (none to apply: %.2f ms)", all["apply-ms/op"], none["apply-ms/op"]), true)
}

func benchBranches(_ string, m map[string]float64) {
	ms := m["ns/op"] / 1e6
	add("worktree HEAD reads per cycle, 100 sessions", "≤ 1 ms", fmt.Sprintf("%.3f ms", ms), ms <= 1)
}

func benchUsage(_ string, m map[string]float64) {
	ms := m["ns/op"] / 1e6
	add("usage reads per cycle, 100 sessions at work", "≤ 1 ms", fmt.Sprintf("%.3f ms", ms), ms <= 1)
}

func benchIngest(_ string, m map[string]float64) {
	add("spool ingest into the store", "≥ 50 000 events/s", fmt.Sprintf("%.0f events/s", m["events/s"]), m["events/s"] >= 50000)
}

func benchView(name string, m map[string]float64) {
	n := strings.TrimPrefix(name, "BenchmarkView/sessions=")
	ms := m["ns/op"] / 1e6
	add("board View(), "+n+" sessions, 200×50", "≤ 1 ms", fmt.Sprintf("%.3f ms, %.0f allocs", ms, m["allocs/op"]), ms <= 1)
}
