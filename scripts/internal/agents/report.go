package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// report prints the agent × scenario table, the walks, whether each agent's
// hooks reached lanes, and the latency figures; it returns the FAIL count.
func report(rows []row, vs [][2]string, took time.Duration) int {
	fmt.Printf("\n## scripts/agents: %d runs in %s (%s)\n\n", len(rows), took.Round(time.Second), pinList(vs))
	var names []string
	for _, rw := range rows {
		if !slices.Contains(names, rw.scenario) {
			names = append(names, rw.scenario)
		}
	}
	var agentNames []string
	for _, rw := range rows {
		if !slices.Contains(agentNames, rw.agent) {
			agentNames = append(agentNames, rw.agent)
		}
	}
	fmt.Printf("| scenario | %s |\n|---|%s\n", strings.Join(agentNames, " | "), strings.Repeat("---|", len(agentNames)))
	failed := 0
	for _, sc := range names {
		cells := []string{}
		for _, a := range agentNames {
			cell := ""
			for _, rw := range rows {
				if rw.agent == a && rw.scenario == sc {
					cell = rw.verdict
					if rw.verdict == "FAIL" {
						failed++
					}
				}
			}
			cells = append(cells, cell)
		}
		fmt.Printf("| %s | %s |\n", sc, strings.Join(cells, " | "))
	}
	fmt.Println("\nWalks (time from the first human action):")
	for _, rw := range rows {
		fmt.Printf("- %s/%s %s (%.0fs): %s\n", rw.agent, rw.scenario, rw.verdict, rw.took.Seconds(), orDash(rw.walk))
		if rw.why != "" {
			fmt.Printf("  %s\n", firstLine(rw.why))
		}
	}
	fmt.Println("\nHooks reaching lanes (spool lines written by the agent's injected hooks):")
	var hook, witness []time.Duration
	for _, a := range agentNames {
		lines, events := 0, map[string]bool{}
		for _, rw := range rows {
			if rw.agent != a {
				continue
			}
			lines += rw.spoolLines
			for _, e := range rw.events {
				events[e] = true
			}
			hook, witness = append(hook, rw.hook...), append(witness, rw.witness...)
		}
		var ev []string
		for e := range events {
			ev = append(ev, e)
		}
		slices.Sort(ev)
		fmt.Printf("- %s: %d lines; events %s\n", a, lines, orDash(strings.Join(ev, ", ")))
	}
	fmt.Printf("\nLatency: hook → ls (spool line time to the first `ls --json` counting it, polled every %s): %s\n", sampleEvery, stats(hook))
	fmt.Printf("Latency: witness (approve/reject/interrupt key → card): %s\n", stats(witness))
	fmt.Printf("\n%d FAIL\n", failed)
	return failed
}

func stats(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no samples"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	p := func(q float64) time.Duration { return s[int(q*float64(len(s)-1)+0.5)] }
	return fmt.Sprintf("n=%d p50 %.2fs p95 %.2fs max %.2fs", len(s), p(0.5).Seconds(), p(0.95).Seconds(), s[len(s)-1].Seconds())
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
