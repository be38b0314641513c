package cli

import (
	"errors"
	"os"
)

// stdinTerminal is stdin when a person types into it (a terminal: a
// character device), else nil: a pipe or file carries a payload or a prompt
// to read whole, a terminal gets asked or told how to end its input.
func (a *app) stdinTerminal() *os.File {
	f, ok := a.stdin.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return f
}

// errNoTerminal: the board draws on a terminal and reads its keys; with
// stdin not one and no controlling terminal (/dev/tty) it has neither.
var errNoTerminal = errors.New("the board needs a terminal (run it in a terminal or tmux pane)")

// boardTerminal says whether the board can have a terminal: whether
// /dev/tty, the process's controlling terminal, opens (Bubble Tea opens it
// when stdin is not a terminal; stdin can be one without it only after a
// setsid). A stdin that is not a file (tests) says nothing against it.
func (a *app) boardTerminal() error {
	if _, ok := a.stdin.(*os.File); !ok {
		return nil
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return errNoTerminal
	}
	return tty.Close()
}
