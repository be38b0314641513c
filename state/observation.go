package state

import (
	"fmt"
	"time"
)

// What one tmux read saw of a pane, the rules a pane's exit is read by
// (docs/design.md §5), and how its exit reads.

// Observation is one pane as one tmux read saw it.
type Observation struct {
	LanesID        string
	SessionID      string // $N
	PaneID         string // %N
	PID            int
	Dead           bool
	DeadStatus     *int // nil: unknown, never 0
	DeadSignal     string
	DeadTime       time.Time
	WindowActivity time.Time
	ServerPID      int // the tmux server's process
}

// Detail is what a surface shows in place of the status's own label, or ""
// when the label says it all: an exited agent's exit, "exited (3)".
func Detail(r *Record, d Derivation) string {
	if d.Status == StatusExited {
		return ExitDetail(r)
	}
	return ""
}

// ExitDetail is the pane exit as users read it: "exited (3)",
// "exited (SIGKILL)", "exited (unknown)".
func ExitDetail(r *Record) string {
	switch {
	case !r.Pane.Dead:
		return "exited"
	case r.Pane.ExitSignal != "":
		return "exited (" + r.Pane.ExitSignal + ")"
	case r.Pane.ExitStatus != nil:
		return fmt.Sprintf("exited (%d)", *r.Pane.ExitStatus)
	}
	return "exited (unknown)"
}

// Pane exit rules (docs/design.md §5).
const (
	ConfirmGap      = time.Second
	CleanLifetime   = 10 * time.Second
	NoTimeReadLimit = 3
	// ClockStepTolerance: a stored observation stamped further than this
	// in the future says the wall clock stepped back, not that a newer
	// read came first.
	ClockStepTolerance = 5 * time.Second
)
