package cli

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"lanes/tmux"
)

// fixCommand is the shell command doctor or lanes new printed after
// "to LABEL: " (what a user would paste).
func fixCommand(t *testing.T, out, label string) string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "to "+label+": ")
	if !ok {
		t.Fatalf("no %q command in:\n%s", label, out)
	}
	cmd, _, _ := strings.Cut(rest, "\n")
	return cmd
}

func sh(t *testing.T, cmd string) {
	t.Helper()
	if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
}

// An orphan (a session carrying an @lanes_id the store does not know) is
// listed by doctor with what it runs, where, on which server, and the
// commands to keep or kill it; the commands work as printed.
func TestDoctorListsOrphanWithCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	dir := t.TempDir()
	for _, name := range []string{"lanes-u1", "lanes-u2"} {
		if _, err := e.tc.NewSession(ctx, tmux.NewSessionOpts{Name: name, Dir: dir, Command: []string{"sleep", "600"}, LanesID: "uuuu000" + name[7:]}); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := e.run("doctor")
	if code == exitOK {
		t.Errorf("doctor exits 0 with orphans")
	}
	for _, want := range []string{"lanes-u1", "@lanes_id uuuu0001", "running sleep in " + dir, "-L " + e.tc.Socket,
		"tmux -L " + e.tc.Socket + " kill-session -t '=lanes-u1'", "set-option -t '=lanes-u1:' -u @lanes_id"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
	_, u2, _ := strings.Cut(out, "lanes-u2 (")
	sh(t, fixCommand(t, u2, "keep it as a plain tmux session lanes ignores"))
	sh(t, fixCommand(t, out, "kill it"))
	out, _, _ = e.run("doctor")
	if strings.Contains(out, "lanes-u1") || strings.Contains(out, "lanes-u2") {
		t.Errorf("doctor still lists the orphans after the printed commands:\n%s", out)
	}
	if ok, _ := e.tc.HasSession(ctx, "lanes-u2"); !ok {
		t.Error("the keep command ended lanes-u2")
	}
}

// lanes new NAME when tmux has lanes-NAME carrying an unknown @lanes_id
// says what it is and the commands doctor gives; after the kill, new works.
func TestNewOnOrphanSaysWhatDoctorSays(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, err := e.tc.NewSession(context.Background(), tmux.NewSessionOpts{Name: "lanes-o", Command: []string{"sleep", "600"}, LanesID: "oooo0001"}); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("new", "o", "--", "sleep", "600")
	if code == exitOK {
		t.Fatal("lanes new o over an orphan lanes-o: exit 0")
	}
	for _, want := range []string{"@lanes_id oooo0001", "running sleep", "an orphan", "kill-session -t '=lanes-o'", "-u @lanes_id"} {
		if !strings.Contains(errs, want) {
			t.Errorf("lanes new o does not say %q:\n%s", want, errs)
		}
	}
	sh(t, fixCommand(t, errs, "kill it"))
	e.must("new", "o", "--", "sleep", "600")
	if s := e.ls()["o"]; s.IsTerminated {
		t.Errorf("o after the orphan was killed: %+v", s)
	}
}
