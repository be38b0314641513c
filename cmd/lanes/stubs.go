package main

import "context"

func (a *app) cmdBoard(ctx context.Context, args []string) int { return a.todo("board") }
func (a *app) todo(n string) int                               { a.stderr.Write([]byte(n + ": not yet\n")); return 1 }
