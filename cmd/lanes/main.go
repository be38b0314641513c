// Command lanes is a terminal board for AI coding agents running in tmux.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(run()) }

func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return newApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv).main(ctx, os.Args[1:])
}
