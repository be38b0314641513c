// Command lanes-board is the lanes board: the lanes command line with the
// terminal UI wired in. `lanes` with no command execs it; every other
// command works here too.
package main

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"

	"lanes/internal/cli"
	"lanes/tui"
)

func main() { os.Exit(cli.Main(board)) }

func board(ctx context.Context, o cli.BoardOptions) error {
	// The board waits on tmux, the spool and the terminal; its work fits one
	// core. One P keeps the runtime from spinning idle threads awake between
	// frames (the idle-CPU rows of scripts/bench measure the board so).
	runtime.GOMAXPROCS(1)
	// Collecting at 75 % heap growth instead of 100 % holds a board of 200
	// sessions 0.7 MB lower for no idle CPU scripts/bench can tell apart
	// (issue 35). A GOGC the user set wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(75)
	}
	var rem tui.Remote
	if len(o.Hosts) > 0 { // no hosts: no ssh, nothing more each cycle
		rem = o.SSH
	}
	return tui.Run(ctx, tui.Options{
		Collector:    o.Collector,
		Ingest:       o.Ingest,
		Actions:      o.Actions,
		Tmux:         o.Tmux,
		StateDir:     o.StateDir,
		Wake:         o.Wake,
		Theme:        o.Theme,
		NoColor:      o.NoColor,
		NoNotify:     o.NoNotify,
		NotifyWays:   o.NotifyWays,
		SaveTheme:    o.SaveTheme,
		BranchPrefix: o.BranchPrefix,
		UsageTopLine: o.UsageTopLine,
		Budgets:      o.Budgets,
		NoContent:    o.NoContent,
		TmuxEnv:      o.TmuxEnv,
		Dir:          o.Dir,
		Agent:        o.Agent,
		Now:          o.Now,
		Hosts:        o.Hosts,
		Remote:       rem,
		Warning:      o.Warning,
	})
}
