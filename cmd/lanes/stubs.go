package main

import (
	"context"
	"lanes/state"
)

func (a *app) cmdHooks(ctx context.Context, args []string) int      { return a.todo("hooks") }
func (a *app) cmdStatusLine(ctx context.Context, args []string) int { return a.todo("status-line") }
func (a *app) cmdDoctor(ctx context.Context, args []string) int     { return a.todo("doctor") }
func (a *app) todo(n string) int                                    { a.stderr.Write([]byte(n + ": not yet\n")); return 1 }

type injection struct {
	argv, env []string
	files     map[string][]byte
	injected  bool
}

func hookPlan(r *state.Record, dir string, argv []string) (injection, error) { return injection{}, nil }

func (a *app) cmdBoard(ctx context.Context, args []string) int { return a.todo("board") }
