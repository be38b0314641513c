package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/state"
)

const restoreUUID = "0b7e3c2a-5d1f-4e8a-9c6b-2f4a8e1d7c35"

// fakeAgents puts stand-ins for claude and codex first on the process's
// PATH (lanes looks agents up there, so the test is not parallel): each
// appends its argv, one word a line, then "--", to the returned file, and
// waits.
func fakeAgents(t *testing.T) (argvLog string) {
	t.Helper()
	bin := t.TempDir()
	argvLog = filepath.Join(t.TempDir(), "argv")
	script := "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '%s\\n' \"$a\"; done >> " + shellQuote(argvLog) +
		"\necho -- >> " + shellQuote(argvLog) + "\nexec sleep 3600\n"
	for _, name := range []string{"claude", "codex"} {
		writeExec(t, filepath.Join(bin, name), script)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return argvLog
}

// launches is every argv the stand-ins recorded, in order.
func launches(t *testing.T, log string) [][]string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	var cur []string
	for _, w := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if w == "--" {
			out, cur = append(out, cur), nil
			continue
		}
		cur = append(cur, w)
	}
	return out
}

// waitLaunches waits until the stand-ins recorded n launches.
func waitLaunches(t *testing.T, log string, n int) [][]string {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for {
		if b, _ := os.ReadFile(log); strings.Count(string(b), "--\n") >= n {
			return launches(t, log)
		}
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %d agent launches", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// reboot kills the test's tmux server, every session with it, and starts
// a new one on the same socket (the old one may take a moment to let go).
func (e *env) reboot() {
	e.t.Helper()
	if _, err := e.tc.Run(context.Background(), "kill-server"); err != nil {
		e.t.Fatal(err)
	}
	end := time.Now().Add(10 * time.Second)
	for {
		_, err := e.tc.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600")
		if err == nil {
			return
		}
		if time.Now().After(end) {
			e.t.Fatalf("starting a new server: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// prompted feeds session name the hooks of a turn of agent ag, with its
// own session id.
func (e *env) prompted(name, ag, id string) {
	e.t.Helper()
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "Stop"} {
		e.stdin = `{"session_id":"` + id + `","hook_event_name":"` + ev + `","cwd":"/","prompt":"hi"}`
		e.must("hook", ag, "--session", name)
	}
	e.stdin = ""
}

// After a reboot, restore starts each session again in its dir with a new
// launch, resuming its agent's conversation: claude --resume ID after the
// agent's own arguments, codex's resume subcommand after every flag; an
// agent that never had a prompt, and a custom command, start afresh and say
// so; a clean exit and a running session are skipped, saying why.
func TestRestoreAfterAReboot(t *testing.T) {
	log := fakeAgents(t)
	e := newEnv(t)
	dir := t.TempDir()
	e.must("new", "api", "--agent", "claude", "--dir", dir, "--", "--model", "opus")
	e.must("new", "cx", "--agent", "codex", "--dir", dir)
	e.must("new", "fresh", "--agent", "claude", "--dir", dir)
	e.must("new", "sh", "--dir", dir, "--", "sleep", "3600")
	waitLaunches(t, log, 3)
	e.prompted("api", "claude", restoreUUID)
	e.prompted("cx", "codex", "01a22e86-8374-7662-9408-fc3e348f47f9")
	e.stdin = `{"session_id":"` + restoreUUID + `","hook_event_name":"SessionStart"}` // no prompt ever
	e.must("hook", "claude", "--session", "fresh")
	e.stdin = ""
	before := e.record("api")

	e.reboot()
	if out, errs, code := e.run("restore", "api"); code != exitOK || !strings.Contains(out, "restored api ("+before.ID+"): resumed claude conversation "+restoreUUID) {
		t.Fatalf("restore api: exit %d, %q %q", code, out, errs)
	}
	got := waitLaunches(t, log, 4)
	argv := got[len(got)-1]
	if n := len(argv); n < 5 || strings.Join(argv[n-4:], " ") != "--model opus --resume "+restoreUUID {
		t.Fatalf("restored claude ran %q; want it to end with --model opus --resume %s", argv, restoreUUID)
	}
	after := e.record("api")
	if !after.Live() || after.ID != before.ID || after.Runtime.Launch == before.Runtime.Launch || after.Dir != dir {
		t.Fatalf("restored record: live %v id %s launch %s (was %s) dir %s", after.Live(), after.ID, after.Runtime.Launch, before.Runtime.Launch, after.Dir)
	}
	if cwd := e.paneDir(after.Runtime.PaneID); cwd != dir {
		t.Fatalf("restored pane's dir = %q, want %s", cwd, dir)
	}
	if _, errs, code := e.run("restore", "api"); code == exitOK || !strings.Contains(errs, "api still has its tmux session; `lanes attach api`") {
		t.Fatalf("restore of a running session: exit %d, %q", code, errs)
	}

	// The others are certified gone by now, or soon (two reads 1 s apart);
	// restore --all takes them either way.
	out := e.must("restore", "--all")
	for _, want := range []string{
		"skipped 1 session(s) whose tmux session is there: api\n",
		"restored cx (",
		"): resumed codex conversation 01a22e86-8374-7662-9408-fc3e348f47f9",
		"restored fresh (", "restored sh (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("restore --all said\n%s\nwithout %q", out, want)
		}
	}
	if strings.Count(out, "no conversation to resume; started afresh") != 2 {
		t.Errorf("restore --all said\n%s\nwant fresh and sh started afresh", out)
	}
	got = waitLaunches(t, log, 6)
	for _, argv := range got[4:] {
		switch argv[0] {
		case "codex":
			if n := len(argv); argv[n-2] != "resume" || argv[n-1] != "01a22e86-8374-7662-9408-fc3e348f47f9" || !strings.HasPrefix(argv[n-3], "notify=") {
				t.Errorf("restored codex ran %q; want resume ID after its -c flags", argv)
			}
		default:
			if strings.Contains(strings.Join(argv, " "), "--resume") {
				t.Errorf("a claude that never had a prompt was resumed: %q", argv)
			}
		}
	}
}

// A session whose agent exited cleanly is not restored, and says why.
func TestRestoreRefusesACleanExit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "done", "--", "sh", "-c", "sleep 11; exit 0") // a clean exit needs 10 s of life
	e.waitFor("done to exit cleanly", 30*time.Second, func(m map[string]listing.Session) bool {
		return m["done"].IsTerminated
	})
	if _, errs, code := e.run("restore", "done"); code == exitOK || !strings.Contains(errs, "its agent exited cleanly") {
		t.Fatalf("restore of a clean exit: exit %d, %q", code, errs)
	}
	if out := e.must("restore", "--all"); !strings.Contains(out, "): not restorable: its agent exited cleanly") {
		t.Fatalf("restore --all said %q", out)
	}
}

// A new server numbers panes afresh: restoring a never respawns the pane
// that now has a's old %N, b's.
func TestRestoreKeepsOthersPanes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must("new", "a", "--", "sleep", "3600")
	e.must("new", "b", "--", "sleep", "3600")
	a := e.record("a")
	e.reboot()
	e.must("restore", "b") // the new server's first lanes pane: a's old %N
	b := e.record("b")
	if b.Runtime.PaneID != a.Runtime.PaneID {
		t.Fatalf("b got %s, a had %s: the clash this test needs did not happen", b.Runtime.PaneID, a.Runtime.PaneID)
	}
	e.must("restore", "a")
	if id, err := e.tc.Run(context.Background(), "display-message", "-p", "-t", b.Runtime.PaneID, "#{@lanes_id}"); err != nil || strings.TrimSpace(string(id)) != b.ID {
		t.Fatalf("after restoring a, pane %s carries lanes id %q (%v); want b's %s", b.Runtime.PaneID, id, err, b.ID)
	}
	if a2 := e.record("a"); a2.Runtime.PaneID == b.Runtime.PaneID || !a2.Live() {
		t.Fatalf("a restored into pane %s (b's %s), live %v", a2.Runtime.PaneID, b.Runtime.PaneID, a2.Live())
	}
}

// restore --all skips a session still starting (an interrupted lanes new):
// nothing to restore yet, and no failure.
func TestRestoreAllSkipsAStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	putStarting(t, e, "ghost")
	if out := e.must("restore", "--all"); !strings.Contains(out, "): still starting") {
		t.Fatalf("restore --all said %q", out)
	}
}

// restore --all names a session once, in front, and prints its reason
// whole: a reason that does not start with the name keeps every letter
// even when the name begins it ("sl", whose command slxyzzy-wait is gone).
func TestRestoreAllKeepsTheReasonWhole(t *testing.T) {
	bin := t.TempDir()
	cmd := filepath.Join(bin, "slxyzzy-wait")
	writeExec(t, cmd, "#!/bin/sh\nexec sleep 3600\n")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	e := newEnv(t)
	e.must("new", "sl", "--dir", t.TempDir(), "--", "slxyzzy-wait")
	id := e.record("sl").ID
	e.reboot()
	if err := os.Remove(cmd); err != nil {
		t.Fatal(err)
	}
	out, errs, code := e.run("restore", "--all")
	if want := "failed sl (" + id + "): slxyzzy-wait not found on PATH"; code == exitOK || !strings.Contains(out, want) {
		t.Fatalf("restore --all: exit %d, said\n%s%s\nwithout %q", code, out, errs, want)
	}
}

// A session whose agent exited in a pane tmux still has is restarted, not
// restored: restore says so, and restore --all lists it apart from the
// sessions that simply run.
func TestRestoreOfAnAgentThatExitedInPlace(t *testing.T) {
	e := newEnv(t)
	e.must("new", "crash", "--", "sh", "-c", "exit 3")
	e.must("new", "live", "--", "sleep", "600")
	deadline := time.Now().Add(30 * time.Second)
	for e.record("crash").Activity.State != state.ActivityExited {
		if time.Now().After(deadline) {
			t.Fatal("crash never exited")
		}
		e.run("ls")
	}
	_, errs, code := e.run("restore", "crash")
	if code == exitOK || !strings.Contains(errs, "crash still has its tmux session, its agent exited; `lanes restart crash` starts it again") {
		t.Errorf("restore crash: exit %d %q", code, errs)
	}
	out := e.must("restore", "--all")
	if !strings.Contains(out, "skipped crash (") || !strings.Contains(out, "skipped 1 session(s) whose tmux session is there: live\n") {
		t.Errorf("restore --all said\n%s", out)
	}
}

// A session the user killed comes back when they name it, not with --all
// (which brings back what a reboot took). The hint --all gives names it
// by id; while a live session has its name, --all says that instead (a
// new-user trial's hint named the live one, and the restore refused).
func TestRestoreAKilledSessionByName(t *testing.T) {
	e := newEnv(t)
	e.must("new", "c", "--dir", t.TempDir(), "--", "sleep", "600")
	id := e.record("c").ID
	e.must("kill", "c")
	hint := "`lanes restore " + id + "` brings it back"
	if out := e.must("restore", "--all"); !strings.Contains(out, "skipped c") || !strings.Contains(out, hint) {
		t.Errorf("restore --all on a killed session: %q, want %q", out, hint)
	}
	e.must("new", "c", "--dir", t.TempDir(), "--", "sleep", "600") // its name, taken again
	if out := e.must("restore", "--all"); !strings.Contains(out, "skipped c ("+id+"): not restorable: live session") {
		t.Errorf("restore --all with its name taken: %q, want it to say so", out)
	}
	other := e.record("c").ID
	e.must("kill", "c")
	e.must("rm", other)
	if out := e.must("restore", id); !strings.Contains(out, "restored c") {
		t.Errorf("restore %s, as the hint says: %q", id, out)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var list []listing.Session
		if err := json.Unmarshal([]byte(e.must("ls", "--json", "--all")), &list); err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(list, func(x listing.Session) bool { return x.ID == id }); i >= 0 && !list[i].IsTerminated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed c (%s) not live again: %+v", id, list)
		}
	}
}
