package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"lanes/state"
	"lanes/tui"
)

func (a *app) cmdBoard(ctx context.Context, args []string) int {
	fs := a.flags("board")
	themeFlag := fs.String("theme", a.theme, "auto (ask the terminal), dark or light")
	if code, done := a.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return a.usageErr(fs, "board takes no arguments")
	}
	switch *themeFlag {
	case tui.ThemeAuto, tui.ThemeDark, tui.ThemeLight:
	default:
		return a.usageErr(fs, "unknown theme %q (want auto, dark or light)", *themeFlag)
	}
	c, err := a.collector()
	if err != nil {
		return a.fail(err)
	}
	dir, err := a.stateDir()
	if err != nil {
		return a.fail(err)
	}
	cwd, _ := os.Getwd()
	// The board waits on tmux, the spool and the terminal; its work fits one
	// core. One P keeps the runtime from spinning idle threads awake between
	// frames: with 100 idle sessions this is a quarter of its idle CPU.
	runtime.GOMAXPROCS(1)
	err = tui.Run(ctx, tui.Options{
		Collector: c,
		// A hook line needs no tmux read: the spool alone moves its card.
		Ingest:   &state.Collector{Store: c.Store, Socket: c.Socket, Now: c.Now},
		Actions:  boardActions{a},
		Tmux:     a.tmuxFor,
		StateDir: dir,
		Theme:    *themeFlag,
		NoColor:  a.getenv("NO_COLOR") != "",
		TmuxEnv:  a.getenv("TMUX"),
		Dir:      cwd,
		Agent:    firstInstalled(),
		Now:      a.now,
	})
	if err != nil {
		return a.fail(fmt.Errorf("board: %w", err))
	}
	return exitOK
}

// boardActions gives the board the same session commands as the command
// line.
type boardActions struct{ a *app }

func (b boardActions) Create(ctx context.Context, name string, agent state.Agent, dir string) (*state.Record, error) {
	if err := state.CheckName(name); err != nil {
		return nil, err
	}
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		dir = filepath.Join(b.a.getenv("HOME"), rest)
	}
	dir, err := b.a.workDir(dir)
	if err != nil {
		return nil, err
	}
	return b.a.create(ctx, name, agent, dir, nil)
}

func (b boardActions) Kill(ctx context.Context, r *state.Record) error { return b.a.kill(ctx, r) }

func (b boardActions) Restart(ctx context.Context, r *state.Record) error {
	return b.a.restart(ctx, r)
}

func (b boardActions) Remove(_ context.Context, r *state.Record) error { return b.a.remove(r) }

func (b boardActions) Send(ctx context.Context, r *state.Record, text string, force bool) error {
	return b.a.send(ctx, r, text, force)
}

func (b boardActions) History(_ context.Context, id string, n int) ([]state.Transition, error) {
	st, err := b.a.store()
	if err != nil {
		return nil, err
	}
	var h []state.Transition
	err = st.View(func(tx *state.Tx) error {
		h, err = tx.History(id, n)
		return err
	})
	return h, err
}

// firstInstalled is the first agent on PATH, for the board's new-session
// dialog; a shell is always there.
func firstInstalled() state.Agent {
	for _, ag := range state.Agents {
		if ag == state.AgentShell {
			break
		}
		if _, err := exec.LookPath(string(ag)); err == nil {
			return ag
		}
	}
	return state.AgentShell
}
