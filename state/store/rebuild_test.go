package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// destroyLeafHolding writes garbage over the first leaf page of the store
// that holds s, as a failing disk would.
func destroyLeafHolding(t *testing.T, st *Store, s string) {
	t.Helper()
	b, err := os.ReadFile(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	const page, leaf = 4096, 0x02
	for k := 2; (k+1)*page <= len(b); k++ {
		if p := b[k*page : (k+1)*page]; binary.LittleEndian.Uint16(p[8:]) == leaf && bytes.Contains(p, []byte(s)) {
			copy(p, garbage())
			if err := os.WriteFile(st.Path(), b, 0o600); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no leaf page holds %q", s)
}

// TestRepairRebuildsLostRecordsFromTraces: six sessions, all their records
// on one page, and the page destroyed. Repair rebuilds each from its
// traces: the five tmux still runs are live again under their names,
// dirs, panes and launches, with the activity their spool gives; the one
// that had ended is terminated; nothing is listed again by a later repair.
func TestRepairRebuildsLostRecordsFromTraces(t *testing.T) {
	s := New(t.TempDir())
	tr := Traces{Names: map[string]string{}, Launches: map[string]string{}}
	var live []LiveSession
	for i := range 6 {
		r := statetest.Rec(state.ActivityIdle)
		r.ID, r.Name, r.Dir = fmt.Sprintf("w%07d", i), fmt.Sprintf("w%d", i), fmt.Sprintf("/src/dir-of-w%d", i)
		r.Runtime.Launch, r.Runtime.SessionID, r.Runtime.PaneID = fmt.Sprintf("L%d", i), fmt.Sprintf("$%d", i), fmt.Sprintf("%%%d", i)
		if i == 5 {
			state.Terminate(r, "killed by user", "user", statetest.T0)
		} else {
			tr.Launches[r.ID] = r.Runtime.Launch
			live = append(live, LiveSession{ID: r.ID, Name: r.Name, TmuxSession: "lanes-" + r.Name,
				SessionID: r.Runtime.SessionID, PaneID: r.Runtime.PaneID, PID: 100 + i, Dir: r.Dir,
				Agent: state.AgentClaude, Command: []string{"claude", "--resume"}, Launch: r.Runtime.Launch, Created: statetest.T0})
		}
		tr.Names[r.ID] = r.Name
		put(t, s, r)
		if err := AppendLine(s.Dir, state.Line{V: 1, At: statetest.T0, Session: r.ID, Launch: r.Runtime.Launch, Agent: "claude", Event: "UserPromptSubmit"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := (&Collector{Store: s, Now: func() time.Time { return statetest.T0 }}).Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Written after the store last read the spool, by w1's agent and by
	// an agent of a launch w2 no longer runs.
	for _, l := range []state.Line{
		{V: 1, At: statetest.T0.Add(time.Second), Session: "w0000001", Launch: "L1", Agent: "claude", Event: "Stop"},
		{V: 1, At: statetest.T0.Add(time.Second), Session: "w0000002", Launch: "old", Agent: "claude", Event: "Stop"},
	} {
		if err := AppendLine(s.Dir, l); err != nil {
			t.Fatal(err)
		}
	}
	destroyLeafHolding(t, s, "/src/dir-of-w0")
	asked := 0
	tr.Live = func(sockets []string) []LiveSession { asked++; return live }

	rep, err := s.Repair(statetest.T0.Add(time.Minute), tr)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Recovered != 0 || len(rep.Rebuilt) != 6 {
		t.Fatalf("recovered %d, rebuilt %+v; want 0 and all 6", rep.Recovered, rep.Rebuilt)
	}
	byID := recordsByID(t, s)
	for i := range 5 {
		r := byID[fmt.Sprintf("w%07d", i)]
		if r == nil || !r.Live() || r.Name != fmt.Sprintf("w%d", i) || r.Dir != fmt.Sprintf("/src/dir-of-w%d", i) ||
			r.Runtime.PaneID != fmt.Sprintf("%%%d", i) || r.Runtime.Launch != fmt.Sprintf("L%d", i) || r.Pane.PID != 100+i || r.CommandLost() {
			t.Fatalf("w%d rebuilt as %+v", i, r)
		}
	}
	if a := byID["w0000001"].Activity.State; a != state.ActivityIdle {
		t.Errorf("w1 is %s; its agent's last event (Stop) makes it idle", a)
	}
	for _, id := range []string{"w0000000", "w0000002"} {
		if a := byID[id].Activity.State; a != state.ActivityActive {
			t.Errorf("%s is %s; its launch's last event (UserPromptSubmit) makes it active", id, a)
		}
	}
	if r := byID["w0000005"]; r == nil || r.Live() || r.Name != "w5" || r.Runtime.TerminatedReason != ReasonRebuilt {
		t.Fatalf("the ended session rebuilt as %+v", r)
	}

	damageFreelist(t, s)
	rep, err = s.Repair(statetest.T0.Add(2*time.Minute), tr)
	if err != nil || rep.Healthy || rep.Recovered != 6 || len(rep.Rebuilt) != 0 {
		t.Fatalf("a second repair: %+v, %v; want 6 recovered, none rebuilt", rep, err)
	}
	if rep, err := s.Repair(statetest.T0.Add(3*time.Minute), tr); err != nil || !rep.Healthy || asked != 2 {
		t.Fatalf("a repair of a healthy store: %+v, %v, tmux asked %d times", rep, err, asked)
	}
}

// recordsByID reads every record in s.
func recordsByID(t *testing.T, s *Store) map[string]*state.Record {
	t.Helper()
	var all []*state.Record
	if err := s.View(func(tx *Tx) error { var err error; all, err = tx.All(); return err }); err != nil {
		t.Fatal(err)
	}
	byID := map[string]*state.Record{}
	for _, r := range all {
		byID[r.ID] = r
	}
	return byID
}

// TestRebuiltNameClash: a rebuilt live session named like a recovered live
// record takes a suffix; tmux sessions of unknown or foreign ids are
// rebuilt only when they carry a session id.
func TestRebuiltNameClash(t *testing.T) {
	s := New(t.TempDir())
	put(t, s, statetest.Rec(state.ActivityIdle)) // "api", live
	damageFreelist(t, s)
	rep, err := s.Repair(statetest.T0, Traces{Live: func([]string) []LiveSession {
		return []LiveSession{
			{ID: "zzzz0001", Name: "api", TmuxSession: "lanes-api", SessionID: "$9", PaneID: "%9", CommandText: `sh -c "x`},
			{ID: "bad id", Name: "x"},
		}
	}})
	if err != nil || rep.Recovered != 1 || len(rep.Rebuilt) != 1 || rep.Rebuilt[0].Name != "api-2" || !rep.Rebuilt[0].Live {
		t.Fatalf("repair: %+v, %v; want api recovered and zzzz0001 rebuilt live as api-2", rep, err)
	}
	if err := s.View(func(tx *Tx) error {
		r, err := tx.Get("zzzz0001")
		if err == nil && (!r.CommandLost() || r.Command[1] != `sh -c "x`) {
			t.Errorf("a command tmux gave as text only: %q", r.Command)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestRebuiltEndKeepsItsFacts: an ended session whose record is lost
// comes back ended as its history says (reason and time), and one with no
// history ended when its spool was last written, never at the repair.
func TestRebuiltEndKeepsItsFacts(t *testing.T) {
	s := New(t.TempDir())
	gone, old := statetest.Rec(state.ActivityIdle), statetest.Rec(state.ActivityIdle)
	gone.ID, gone.Name, gone.Dir = "gone0001", "gone", "/src/dir-of-gone"
	old.ID, old.Name, old.Dir = "oldd0001", "old", "/src/dir-of-old"
	tr := state.Terminate(gone, "killed by user", "user", statetest.T0)
	state.Terminate(old, "exited", "tmux", statetest.T0)
	big := statetest.Rec(state.ActivityIdle) // the records' own page, not inline among the buckets
	big.ID, big.Name, big.Dir = "bigg0001", "big", "/src/dir-of-big"+strings.Repeat("x", 2000)
	put(t, s, gone, old, big)
	if err := s.Update(func(tx *Tx) error { return tx.AppendHistory(gone.ID, *tr) }); err != nil {
		t.Fatal(err)
	}
	if err := AppendLine(s.Dir, state.Line{V: 1, At: statetest.T0, Session: old.ID, Agent: "claude", Event: "Stop"}); err != nil {
		t.Fatal(err)
	}
	written := statetest.T0.Add(-time.Hour)
	for _, f := range spoolFilesOf(s.SpoolDir(), old.ID) {
		if err := os.Chtimes(f, written, written); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	for k := 2; (k+1)*4096 <= len(b); k++ { // every copy of the records' page
		if p := b[k*4096 : (k+1)*4096]; bytes.Contains(p, []byte("/src/dir-of-")) {
			copy(p, garbage())
		}
	}
	if err := os.WriteFile(s.Path(), b, 0o600); err != nil {
		t.Fatal(err)
	}
	later := statetest.T0.Add(48 * time.Hour)
	rep, err := s.Repair(later, Traces{Names: map[string]string{gone.ID: "gone", old.ID: "old"}})
	if err != nil || len(rep.Rebuilt) != 2 {
		t.Fatalf("repair: %+v, %v; want gone and old rebuilt", rep, err)
	}
	if err := s.View(func(tx *Tx) error {
		g, err := tx.Get(gone.ID)
		if err != nil {
			return err
		}
		if g.Runtime.TerminatedReason != "killed by user" || !g.Runtime.TerminatedAt.Equal(statetest.T0) {
			t.Errorf("gone rebuilt ended %q at %v; its history says killed by user at %v", g.Runtime.TerminatedReason, g.Runtime.TerminatedAt, statetest.T0)
		}
		o, err := tx.Get(old.ID)
		if err != nil {
			return err
		}
		if !o.Runtime.TerminatedAt.Equal(written) {
			t.Errorf("old rebuilt ended at %v; its spool was last written %v", o.Runtime.TerminatedAt, written)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
