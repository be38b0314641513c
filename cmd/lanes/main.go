// Command lanes is a terminal board for AI coding agents running in tmux.
// It links no terminal UI, so the commands tmux and the agents run often
// start fast; with no command it execs lanes-board, the board.
package main

import (
	"os"

	"lanes/cli"
)

func main() { os.Exit(cli.Main(nil)) }
