package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillPRSync: 50 idle sessions over 5 repositories under a running board,
// with a gh on PATH that answers one open PR per repository and logs each
// run. Every card reaches In review from gh alone; over the measured
// window the board runs one gh read per repository per cadence (60 s; 5 s
// with --quick), never more than 2 at once (issue 13).
func drillPRSync(w *world.World) (string, error) {
	const repos, per = 5, 10
	every, window := 60*time.Second, 120*time.Second
	if *quick {
		every, window = 5*time.Second, 20*time.Second
	}
	shim := filepath.Join(w.Root, "ghshim")
	log := filepath.Join(w.Root, "gh.log")
	answer := `[{"number":7,"state":"OPEN","isDraft":false,"reviewDecision":"REVIEW_REQUIRED","mergeable":"MERGEABLE",` +
		`"baseRefName":"main","headRefName":"work","url":"https://github.com/acme/shop/pull/7","updatedAt":"2030-01-01T00:00:00Z",` +
		`"isCrossRepository":false,"statusCheckRollup":[]}]`
	script := fmt.Sprintf("#!/bin/sh\necho b >>'%[1]s'\necho '%[2]s'\necho e >>'%[1]s'\n", log, answer)
	if err := os.MkdirAll(shim, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(shim, "gh"), []byte(script), 0o700); err != nil {
		return "", err
	}
	for i := range repos {
		dir := filepath.Join(w.Root, "repos", "r"+strconv.Itoa(i))
		for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "first"}, {"checkout", "-q", "-b", "work"}} {
			if err := drillGit(dir, args...); err != nil {
				return "", err
			}
		}
		for j := range per {
			if r := w.Lanes("", "new", fmt.Sprintf("r%d-%d", i, j), "--dir", dir, "--", "sleep", "86400"); r.Code != 0 {
				return "", fmt.Errorf("lanes new: exit %d: %s", r.Code, r.Stderr)
			}
		}
	}
	start := time.Now()
	if err := w.StartBoard(w.Socket+"-pr", 160, 48, "PATH="+shim+":"+os.Getenv("PATH"), "LANES_PR_EVERY="+every.String()); err != nil {
		return "", err
	}
	var inReview int
	if !world.Poll(every+30*time.Second, 250*time.Millisecond, func() bool {
		r := w.Lanes("", "ls", "--json")
		inReview = strings.Count(r.Stdout, `"zone": "in_review"`) + strings.Count(r.Stdout, `"zone":"in_review"`)
		return inReview == repos*per
	}) {
		return "", fmt.Errorf("%d of %d cards in In review %v after the board started", inReview, repos*per, time.Since(start).Round(time.Second))
	}
	filled := time.Since(start)
	_ = os.WriteFile(log, nil, 0o600)
	time.Sleep(window)
	b, _ := os.ReadFile(log)
	starts, most := concurrency(string(b))
	perMin := float64(starts) * float64(time.Minute) / float64(window)
	ev := fmt.Sprintf("%d sessions over %d repositories: every card in In review %v after the board started\n"+
		"over %v at a %v cadence: %d gh reads (%.1f a minute; one per repository per cadence), at most %d at once (budget 2)",
		repos*per, repos, filled.Round(100*time.Millisecond), window, every, starts, perMin, most)
	if starts > repos*(int(window/every)+1) || most > 2 {
		return ev, fmt.Errorf("over budget")
	}
	// And not under it: each repository is read again every cadence.
	if starts < repos*(int(window/every)-1) { // reads near the window's end may fall after it
		return ev + "\n" + w.Screen(w.Socket+"-pr"), fmt.Errorf("fewer reads than one per repository per cadence")
	}
	return ev, nil
}
