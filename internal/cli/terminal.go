package cli

import "os"

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
