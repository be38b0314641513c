// Command tmuxread does the collector's one tmux read and exits. The bench
// times it beside the status line: it is the floor under any Go program
// that reads tmux, whatever else that program does.
package main

import (
	"context"
	"fmt"
	"os"

	"lanes/tmux"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tmuxread SOCKET")
		os.Exit(2)
	}
	if _, err := tmux.New(os.Args[1]).ListPanes(context.Background(), false); err != nil {
		fmt.Fprintln(os.Stderr, "tmuxread:", err)
		os.Exit(1)
	}
}
