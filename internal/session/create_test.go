package session

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"lanes/state"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// Create starts a session on a real tmux server and records what tmux
// made; Kill ends it and records that.
func TestCreateThenKillOnARealServer(t *testing.T) {
	t.Parallel()
	tc := tmuxtest.Server(t)
	// A session not lanes' keeps the server up once lanes-api is killed.
	if _, err := tc.Run(bg, "new-session", "-d", "-s", "keep", "sleep", "3600"); err != nil {
		t.Fatalf("starting the private server: %v", err)
	}
	s := newService(t, tc.Socket, tmuxtest.Timeout)
	s.Tmux = func(socket string) *tmux.Client {
		if socket != tc.Socket {
			t.Errorf("a client for server %q, want the test's %q", socket, tc.Socket)
		}
		return tc
	}
	r, err := s.Create(bg, "api", state.AgentCustom, t.TempDir(), []string{"sleep", "600"}, false)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if r.Runtime.SessionID == "" || r.Runtime.PaneID == "" || !r.Runtime.StartingAt.IsZero() {
		t.Fatalf("created record: session %q, pane %q, starting %v", r.Runtime.SessionID, r.Runtime.PaneID, r.Runtime.StartingAt)
	}
	if got := stored(t, s, r.ID); got.Runtime.PaneID != r.Runtime.PaneID || got.Runtime.TmuxSession != "lanes-api" {
		t.Errorf("stored: pane %q in %q, want %q in lanes-api", got.Runtime.PaneID, got.Runtime.TmuxSession, r.Runtime.PaneID)
	}
	if id, err := tc.SessionLanesID(bg, "lanes-api"); err != nil || id != r.ID {
		t.Errorf("tmux session lanes-api carries @lanes_id %q (%v), want %s", id, err, r.ID)
	}
	st, _ := s.Store()
	if b, err := os.ReadFile(NameIndex(st.Dir, "api")); err != nil || strings.TrimSpace(string(b)) != r.ID {
		t.Errorf("name index: %q (%v), want %s", b, err, r.ID)
	}

	if err := s.Kill(bg, r, false); err != nil {
		t.Fatalf("kill: %v", err)
	}
	if ok, err := tc.HasSession(bg, "lanes-api"); ok || err != nil {
		t.Errorf("after kill, tmux has lanes-api: %v (%v)", ok, err)
	}
	if got := stored(t, s, r.ID); !got.Runtime.Terminated || got.Runtime.TerminatedReason != "killed by user" {
		t.Errorf("stored after kill: terminated %v (%q)", got.Runtime.Terminated, got.Runtime.TerminatedReason)
	}
}

// The service is what the board runs, but it must not link the board:
// nothing of the terminal UI, the command line or the theme.
func TestSessionLinksNoBoard(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "lanes/internal/session").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "lanes/tui" || pkg == "lanes/internal/cli" || strings.HasPrefix(pkg, "lanes/theme") ||
			strings.HasPrefix(pkg, "charm.land/") || strings.HasPrefix(pkg, "github.com/charmbracelet/") {
			t.Errorf("internal/session imports %s", pkg)
		}
	}
}
