package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
)

var figureLine = regexp.MustCompile(`(?m)\bfigure (\S+) ([0-9.]+) `)

// benchHosts takes issue 33's figures at scale, one board over 10 hosts
// of 100 sessions each over a private loopback sshd: the tui package's
// figures test (built with the figures tag) takes them and logs each as
// "figure KEY VALUE"; it needs root's rights and openssh-server.
func benchHosts() {
	fmt.Fprintln(os.Stderr, "10 hosts × 100 sessions over ssh…")
	cmd := exec.Command("go", "test", "-tags", "figures", "-count=1", "-v", "-run", "^TestHostsScaleFigures$", "./tui")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fail(fmt.Errorf("the hosts figures: %v\n%s", err, out))
	}
	f := map[string]float64{}
	for _, m := range figureLine.FindAllStringSubmatch(string(out), -1) {
		f[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	for _, k := range []string{"idle-cpu-percent", "hook-card-p95", "y-key-p95", "rss-mb"} {
		if _, ok := f[k]; !ok {
			fail(fmt.Errorf("the hosts figures: no %s in\n%s", k, out))
		}
	}
	ms := func(k string) string {
		return fmt.Sprintf("p50 %.0f ms, p95 %.0f ms, max %.0f ms", f[k+"-p50"], f[k+"-p95"], f[k+"-max"])
	}
	add("10 hosts × 100 sessions: the board and every process of its ssh, idle, 30 s", "≤ 1 % of a core",
		fmt.Sprintf("%.2f %%", f["idle-cpu-percent"]), f["idle-cpu-percent"] <= 1)
	add("10 hosts × 100 sessions: a remote hook → its card on screen, 20 hooks", "p95 ≤ 100 ms", ms("hook-card"), f["hook-card-p95"] <= 100)
	add("10 hosts × 100 sessions: a remote `y` → the key in the remote pane, 10 dialogs", "p95 ≤ 500 ms", ms("y-key"), f["y-key-p95"] <= 500)
	add("10 hosts × 100 sessions: board RSS", "≤ 40 MB", fmt.Sprintf("%.1f MB", f["rss-mb"]), f["rss-mb"] <= 40)
}
