// Command lanes is a terminal board for AI coding agents running in tmux.
// It links no terminal UI, so the commands tmux and the agents run often
// start fast; with no command it execs lanes-board, the board.
package main

import (
	"os"
	"runtime/debug"

	"lanes/internal/cli"
)

// shortLivedHeap: every command here runs for milliseconds and exits, so
// the collector would only spend them (at 1,000 sessions, a third of `ls
// --json`'s CPU was marking a heap about to be thrown away). It runs only
// once the heap reaches this, which no command comes near; GOGC or
// GOMEMLIMIT set by the user win.
const shortLivedHeap = 256 << 20

func main() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(shortLivedHeap)
	}
	os.Exit(cli.Main(nil))
}
