package cli

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
	"lanes/state/store"
)

// TestRepairRebuildsSessionsTmuxRuns: six sessions (one killed), the page
// of their records destroyed. Repair rebuilds every one: the five tmux
// runs are live again with their names, dirs, panes and launches, so
// their agents' events apply; the killed one is ended; nothing shows as
// an orphan, and a second repair finds nothing to do.
func TestRepairRebuildsSessionsTmuxRuns(t *testing.T) {
	e := newEnv(t)
	names := []string{"api", "web", "db", "docs", "ops", "ui"}
	for _, n := range names {
		dir, cmd := t.TempDir(), "sleep 3600"
		switch n {
		case "db": // a git checkout: its branch comes back
			gitRepo(t, dir, "feature-x")
		case "ops": // a dead pane has no current path: its dir comes back all the same
			cmd = "exit 3"
		}
		e.must("new", "--dir", dir, n, "--", "sh", "-c", cmd)
	}
	e.waitFor("ops's pane to die", 10*time.Second, func(s map[string]listing.Session) bool { return s["ops"].Exit != nil })
	e.must("kill", "ui")
	before := e.ls()
	panes := map[string]string{}
	st := store.New(e.state)
	if err := st.View(func(tx *store.Tx) error {
		all, err := tx.All()
		for _, r := range all {
			panes[r.Name] = r.Runtime.PaneID
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	damageEveryLeafHolding(t, filepath.Join(e.state, "lanes.db"), "lanes-api")

	out, errs, _ := e.run("doctor", "--repair")
	if !strings.Contains(out, "recovered 0 record(s) as they were; rebuilt 6 from traces (5 live in tmux: ") ||
		!strings.Contains(out, "1 ended: ui") || strings.Contains(out, "orphan") {
		t.Fatalf("doctor --repair said:\n%s%s", out, errs)
	}
	after := e.ls()
	for _, n := range names[:5] {
		b, a := before[n], after[n]
		if a.IsTerminated || a.ID != b.ID || a.Dir != b.Dir || a.Branch != b.Branch || a.Launch != b.Launch || a.TmuxSession != b.TmuxSession {
			t.Errorf("%s rebuilt as %+v, was %+v", n, a, b)
		}
	}
	// Its salvaged history says how it ended.
	if ui := after["ui"]; !ui.IsTerminated || ui.TerminatedReason == nil || *ui.TerminatedReason != "killed by user" {
		t.Errorf("the killed session rebuilt as %+v", ui)
	}
	if err := st.View(func(tx *store.Tx) error {
		all, err := tx.All()
		for _, r := range all {
			if r.Live() && r.Runtime.PaneID != panes[r.Name] {
				t.Errorf("%s rebuilt on pane %q, was %q", r.Name, r.Runtime.PaneID, panes[r.Name])
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}

	api := before["api"]
	if err := store.AppendLine(e.state, state.Line{V: 1, At: time.Now().UTC(), Session: api.ID, Launch: api.Launch, Agent: "generic", Event: "blocked"}); err != nil {
		t.Fatal(err)
	}
	if a := e.ls()["api"].Activity; a != state.ActivityBlocked {
		t.Errorf("api's agent reported blocked; api is %s", a)
	}
	if out, _, _ := e.run("doctor", "--repair"); !strings.Contains(out, "nothing to repair") || strings.Contains(out, "rebuilt") {
		t.Errorf("a second repair said:\n%s", out)
	}
}

// TestRestartRefusesALostCommand: a rebuilt record whose command tmux
// gave only as text is not run again on a guess.
func TestRestartRefusesALostCommand(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("lost0001", "api", state.ActivityIdle, now)
	r.Command = store.LostCommand(`codex -c "x" --model o3`)
	e := lsEnv(t, r)
	_, errs, code := e.run("restart", "api")
	if code == exitOK || !strings.Contains(errs, "its command was lost in a damaged store; start a new session") {
		t.Fatalf("restart: exit %d, %s", code, errs)
	}
}

// damageEveryLeafHolding writes garbage over every leaf page holding key:
// the one in use and any older copy bbolt has freed.
func damageEveryLeafHolding(t *testing.T, path, key string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page, leaf = 4096, 0x02
	for k := 2; (k+1)*page <= len(b); k++ {
		if p := b[k*page : (k+1)*page]; binary.LittleEndian.Uint16(p[8:]) == leaf && bytes.Contains(p, []byte(key)) {
			for i := range p {
				p[i] = byte(i*7 + 13)
			}
		}
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// gitRepo makes dir a git checkout on branch.
func gitRepo(t *testing.T, dir, branch string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", branch}, {"-c", "user.email=l@l", "-c", "user.name=l", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
