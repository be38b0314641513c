package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state/store"
)

// TestMissingStoreIsRefused: lanes.db removed while lanes' other files
// show it existed. Nothing starts an empty store over it: ls refuses and
// says to repair, doctor says so, new does not call a lanes session foreign;
// `lanes doctor --repair` rebuilds every session from its traces.
func TestMissingStoreIsRefused(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"api", "web"} {
		e.must("new", "--dir", t.TempDir(), n, "--", "sh", "-c", "sleep 3600")
	}
	db := filepath.Join(e.state, "lanes.db")
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("ls", "--all")
	if code == exitOK || !strings.Contains(errs, "store missing") || !strings.Contains(errs, "lanes doctor --repair") {
		t.Fatalf("ls with lanes.db gone: exit %d, %q; want it refused with the repair advice", code, errs)
	}
	if _, err := os.Lstat(db); err == nil {
		t.Fatal("ls made a new empty lanes.db")
	}
	out, _, _ := e.run("doctor")
	if !strings.Contains(out, "store missing") || strings.Contains(out, "kill-session") {
		t.Fatalf("doctor with lanes.db gone said:\n%s", out)
	}
	out, errs, _ = e.run("doctor", "--repair")
	if !strings.Contains(out, "rebuilt 2 from traces (2 live in tmux: api, web)") {
		t.Fatalf("doctor --repair said:\n%s%s", out, errs)
	}
	if got := e.ls(); len(got) != 2 || got["api"].IsTerminated || got["web"].IsTerminated {
		t.Fatalf("after the repair: %+v", got)
	}
}

// TestFreshStateDirMakesTheStore: a state dir with none of lanes' files
// gets its store on first use.
func TestFreshStateDirMakesTheStore(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.state), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := e.run("ls", "--all"); code != exitOK {
		t.Fatalf("ls in a fresh state dir: exit %d %s%s", code, out, errs)
	}
	if _, err := os.Lstat(filepath.Join(e.state, "lanes.db")); err != nil {
		t.Fatalf("no store made: %v", err)
	}
}

// TestNewFacingALostSession: a tmux session lanes-NAME that carries an
// @lanes_id the store does not know is not called foreign.
func TestNewFacingALostSession(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	if _, err := e.tc.Run(ctx, "new-session", "-d", "-s", "lanes-z1", "sleep", "3600"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.tc.Run(ctx, "set-option", "-t", "=lanes-z1:", "--", "@lanes_id", "lost0001"); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("new", "z1", "--", "cat")
	if code == exitOK || strings.Contains(errs, "not started by lanes") || !strings.Contains(errs, "lanes doctor") {
		t.Fatalf("new over a lanes session the store lost: exit %d, %q", code, errs)
	}
}

// TestOrphansTheStoreLost: sessions whose records an empty store lost
// (their ids are in lanes' name index) are not offered for killing: doctor
// says to repair, and the repair brings them back live.
func TestOrphansTheStoreLost(t *testing.T) {
	e := newEnv(t)
	e.must("new", "--dir", t.TempDir(), "api", "--", "sh", "-c", "sleep 3600")
	st := store.New(e.state)
	if err := st.Update(func(tx *store.Tx) error {
		all, err := tx.All()
		for _, r := range all {
			err = errors.Join(err, tx.Delete(r.ID))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	out, _, _ := e.run("doctor")
	if strings.Contains(out, "kill-session") || !strings.Contains(out, "fix: lanes doctor --repair") {
		t.Fatalf("doctor with api's record lost said:\n%s", out)
	}
	out, errs, _ := e.run("doctor", "--repair")
	if !strings.Contains(out, "rebuilt 1 from traces (1 live in tmux: api)") {
		t.Fatalf("doctor --repair said:\n%s%s", out, errs)
	}
	if api, ok := e.ls()["api"]; !ok || api.IsTerminated {
		t.Fatalf("api after the repair: %+v", api)
	}
}
