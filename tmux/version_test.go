package tmux_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

func TestControlCrash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v     string
		crash bool
	}{
		{"3.3a", true}, {"3.4", true}, {"3.5a", true}, {"3.6a", true}, {"next-3.6", true},
		{"3.7", false}, {"3.7c", false}, {"next-3.8", false}, {"4.0", false},
		{"openbsd-7.5", true}, {"master", true}, {"", true},
	} {
		if got := tmux.ControlCrash(tc.v) != ""; got != tc.crash {
			t.Errorf("ControlCrash(%q) crashes = %v, want %v", tc.v, got, tc.crash)
		}
	}
	for _, tc := range []struct {
		v    string
		want bool
	}{{"3.3a", true}, {"3.2a", false}, {"2.9", false}, {"next-3.4", true}, {"openbsd-7.5", true}} {
		if got := tmux.AtLeast(tc.v, 3, 3); got != tc.want {
			t.Errorf("AtLeast(%q, 3, 3) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// A board's reader attaches a control client only to a server whose
// version survives one connecting while sessions open and close; on any
// other every read is a tmux client of its own, and the reads are the
// same.
func TestPaneReaderAttachesOnlyWhereSafe(t *testing.T) {
	t.Parallel()
	c := tmuxtest.Server(t)
	newSession(t, c, tmux.NewSessionOpts{Name: "a", Command: []string{"sleep", "600"}, LanesID: "id-a"})
	v, err := c.ServerVersion(t.Context())
	if err != nil || v == "" {
		t.Fatalf("ServerVersion = %q, %v", v, err)
	}
	bin, err := c.Version(t.Context())
	if err != nil || bin != v {
		t.Fatalf("the server says %q, the binary %q (%v): one tmux here", v, bin, err)
	}
	r := &tmux.PaneReader{Client: c}
	defer r.Close()
	for range 3 {
		panes, err := r.ListPanes(t.Context(), false)
		if err != nil || len(panes) != 1 || panes[0].LanesID != "id-a" {
			t.Fatalf("read = %+v, %v", panes, err)
		}
	}
	attached := slices.ContainsFunc(clients(t, c), func(s string) bool { return strings.HasPrefix(s, "1 ") })
	if want := tmux.ControlCrash(v) == ""; attached != want {
		t.Errorf("tmux %s: control client attached = %v, want %v", v, attached, want)
	}
	_, err = raw(t, c, "has-session", "-t", "="+tmux.ReaderSession)
	if made := err == nil; made != attached {
		t.Errorf("tmux %s: reader session made = %v (%v), want %v", v, made, err, attached)
	} else if err != nil && !errors.Is(err, tmux.ErrNoSession) {
		t.Errorf("has-session: %v", err)
	}
}
