package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// fieldSep separates format fields. A unit separator cannot appear in a
// session name typed by a person, unlike a tab, space or '|'.
const fieldSep = "\x1f"

// paneFields is the order of fields in every line parsePanes reads. tmux
// formats each field of each pane on every read, which at 200 sessions
// costs about half a millisecond a field, so the read asks only for what
// the collector uses, and the exit fields only of dead panes.
var paneFields = []string{
	"@lanes_id",
	"pane_id",
	"pane_pid",
	"window_activity",
	"session_id",
	"pid", // the server's: a server that exits takes every session with it
	"pane_dead",
	"pane_dead_status",
	"pane_dead_signal",
	"pane_dead_time",
}

// paneFormat is the -F argument of the per-cycle list-panes read: a live
// pane prints 0 and empty exit fields without tmux looking them up.
var paneFormat = func() string {
	field := func(f string) string { return "#{" + f + "}" }
	var live []string
	for _, f := range paneFields[:6] {
		live = append(live, field(f))
	}
	var dead []string
	for _, f := range paneFields[7:] {
		dead = append(dead, field(f))
	}
	exit := "#{?pane_dead,1" + fieldSep + strings.Join(dead, fieldSep) + ",0" + strings.Repeat(fieldSep, len(dead)) + "}"
	return strings.Join(live, fieldSep) + fieldSep + exit
}()

// Pane is one pane as tmux reported it in a single read.
type Pane struct {
	LanesID string // the session's @lanes_id user option
	PaneID  string // "%7"
	PID     int    // the pane's process; still reported after it died
	// SessionID is the pane's session ("$3"): a session lanes started but
	// never heard back about is found by its @lanes_id, and then needs it.
	SessionID string
	// ServerPID is the tmux server's process, the same on every pane of
	// a read.
	ServerPID int
	Dead      bool
	// DeadStatus is the exit status of a dead pane, nil when tmux did not
	// report one (killed by a signal, or not yet reaped). Absent is
	// unknown, never 0.
	DeadStatus *int
	// DeadSignal names the signal that killed the pane's process
	// ("SIGKILL"), "" when there was none or tmux has not said.
	DeadSignal string
	// DeadTime is when tmux saw the process die (whole seconds), zero when
	// not reported.
	DeadTime time.Time
	// WindowActivity is the last output in the pane's window (whole
	// seconds), zero when not reported.
	WindowActivity time.Time
}

// ListPanes reads every pane of the server in ONE tmux invocation: lanes'
// own (LanesID, its session's @lanes_id) and the others (LanesID "", where
// a session lanes did not start may run). An empty
// server answer is no panes and no error; a server that is not running is
// ErrNoServer.
//
// reap works around a tmux 3.3 race: a pane can read dead with neither
// status nor time, its process a zombie the server has not reaped (it
// missed the SIGCHLD: two children that end at once). With reap, such a
// read signals the server SIGCHLD, whose handler reaps every child, and
// reads again (withReap). (A `run-shell true` chained before the read
// used to do it, and hung for good when its own child was missed too.)
func (c *Client) ListPanes(ctx context.Context, reap bool) ([]Pane, error) {
	read := func() ([]Pane, error) {
		out, err := c.run(ctx, listPanesCmds()...)
		if err != nil {
			return nil, err
		}
		return parseListPanes(out)
	}
	if reap {
		return withReap(ctx, read)
	}
	return read()
}

// listPanesCmds is the read as tmux commands.
func listPanesCmds() [][]string {
	return [][]string{{"list-panes", "-a", "-F", paneFormat}}
}

// withReap reads the panes, and while one reads dead without its time,
// signals its server SIGCHLD and reads again, 5 ms apart, 5 times at most
// (the last read stands: a pane still without its time is said so).
func withReap(ctx context.Context, read func() ([]Pane, error)) ([]Pane, error) {
	panes, err := read()
	for range 5 {
		i := slices.IndexFunc(panes, func(p Pane) bool { return p.Dead && p.DeadTime.IsZero() && p.ServerPID > 1 })
		if err != nil || i < 0 || ctx.Err() != nil {
			break
		}
		_ = syscall.Kill(panes[i].ServerPID, syscall.SIGCHLD)
		time.Sleep(5 * time.Millisecond)
		panes, err = read()
	}
	return panes, err
}

func parseListPanes(out []byte) ([]Pane, error) {
	panes, err := parsePanes(out)
	if err != nil {
		return nil, fmt.Errorf("tmux list-panes: %w", err)
	}
	return panes, nil
}

// parsePanes parses list-panes output written with paneFormat, one pane
// per line. A malformed line is skipped rather than failing the whole read,
// so one odd pane cannot hide the others; the read fails only when lines
// were present and none parsed.
func parsePanes(out []byte) ([]Pane, error) {
	var (
		panes []Pane
		errs  []error
	)
	for n, line := range bytes.Split(out, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		p, err := parsePane(string(line))
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n+1, err))
			continue
		}
		if p.LanesID == readerMark {
			continue // a board's reading post, not a session
		}
		panes = append(panes, p)
	}
	if len(panes) == 0 && len(errs) > 0 {
		return nil, fmt.Errorf("no pane line parsed: %w", errors.Join(errs...))
	}
	return panes, nil
}

func parsePane(line string) (Pane, error) {
	f := strings.Split(line, fieldSep)
	if len(f) != len(paneFields) {
		return Pane{}, fmt.Errorf("%d fields, want %d", len(f), len(paneFields))
	}
	p := Pane{LanesID: f[0], PaneID: f[1], SessionID: f[4], DeadSignal: signalName(f[8])}
	if !isID(p.PaneID, '%') {
		return Pane{}, fmt.Errorf("bad pane id %q", p.PaneID)
	}
	if !isID(p.SessionID, '$') {
		return Pane{}, fmt.Errorf("bad session id %q", p.SessionID)
	}
	var err error
	if p.PID, err = strconv.Atoi(f[2]); err != nil {
		return Pane{}, fmt.Errorf("pane_pid: %w", err)
	}
	if p.WindowActivity, err = parseEpoch(f[3]); err != nil {
		return Pane{}, fmt.Errorf("window_activity: %w", err)
	}
	if p.ServerPID, err = strconv.Atoi(f[5]); err != nil {
		return Pane{}, fmt.Errorf("pid: %w", err)
	}
	switch f[6] {
	case "0", "":
	case "1":
		p.Dead = true
	default:
		return Pane{}, fmt.Errorf("pane_dead %q", f[6])
	}
	if f[7] != "" {
		st, err := strconv.Atoi(f[7])
		if err != nil {
			return Pane{}, fmt.Errorf("pane_dead_status: %w", err)
		}
		p.DeadStatus = &st
	}
	if p.DeadTime, err = parseEpoch(f[9]); err != nil {
		return Pane{}, fmt.Errorf("pane_dead_time: %w", err)
	}
	return p, nil
}

// parseEpoch reads tmux's whole-second timestamps; "" (and tmux's 0 for
// "never") is the zero time.
func parseEpoch(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	if n == 0 {
		return time.Time{}, nil
	}
	return time.Unix(n, 0), nil
}

// signalName turns tmux's pane_dead_signal into a name such as "SIGKILL".
// tmux 3.3 prints the number; other versions may print a name. A number
// outside the table becomes "SIG<n>" so it is never mistaken for no signal.
func signalName(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		s = strings.ToUpper(s)
		if !strings.HasPrefix(s, "SIG") {
			s = "SIG" + s
		}
		return s
	}
	if n == 0 {
		return "" // no signal, whatever tmux meant by printing it
	}
	if name, ok := signalNames[n]; ok {
		return name
	}
	return "SIG" + strconv.Itoa(n)
}

// signalNames maps signal numbers of the OS the tmux server runs on (the
// same machine) to names. syscall.Signal.String gives descriptions
// ("killed"), not names, hence our own tables.
var signalNames = func() map[int]string {
	switch runtime.GOOS {
	case "darwin", "freebsd", "openbsd", "netbsd", "dragonfly":
		return bsdSignals
	}
	return linuxSignals
}()

// linuxSignals is the numbering of Linux on x86, ARM and most others.
var linuxSignals = map[int]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP",
	6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1",
	11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
	16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP",
	21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR",
	31: "SIGSYS",
}

// bsdSignals is the classic BSD numbering shared by macOS and the BSDs.
var bsdSignals = map[int]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP",
	6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS",
	11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
	16: "SIGURG", 17: "SIGSTOP", 18: "SIGTSTP", 19: "SIGCONT", 20: "SIGCHLD",
	21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGIO", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGINFO", 30: "SIGUSR1",
	31: "SIGUSR2",
}
