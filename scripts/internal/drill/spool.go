package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
	"lanes/state/store"
)

// newSession starts `sleep` as session name and returns its ls entry.
func newSession(w *world.World, name string) (world.Session, error) {
	if err := w.NewSleeper(name); err != nil {
		return world.Session{}, err
	}
	s, err := w.Ls()
	return s[name], err
}

// appendSpool appends raw bytes to a session's spool file, as a hook would.
func appendSpool(w *world.World, id string, raw []byte) error {
	if err := os.MkdirAll(store.SpoolDir(w.State), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(store.SpoolPath(w.State, id), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(raw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// prFacts is the PR list of `lanes ls --json`, by session name.
func prFacts(w *world.World) (map[string][]map[string]any, error) {
	r := w.Lanes("", "ls", "--json", "--all")
	var list []struct {
		Name string           `json:"name"`
		PRs  []map[string]any `json:"prs"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		return nil, fmt.Errorf("lanes ls --json: %v (%s)", err, r.Stderr)
	}
	out := map[string][]map[string]any{}
	for _, s := range list {
		out[s.Name] = s.PRs
	}
	return out, nil
}

// drillLongLine: a spool line over 8 MiB (one cycle's whole read) is
// counted too_long once, and the hook events and the `lanes pr` fact after
// it apply.
func drillLongLine(w *world.World) (string, error) {
	s, err := newSession(w, "long")
	if err != nil {
		return "", err
	}
	long := append([]byte(`{"v":1,"session":"`+s.ID+`","agent":"generic","event":"`), bytes.Repeat([]byte("x"), 8<<20+1024)...)
	if err := appendSpool(w, s.ID, append(long, "\"}\n"...)); err != nil {
		return "", err
	}
	events := []string{"active", "blocked", "active", "idle"}
	for _, ev := range events {
		if r := w.Lanes("", "hook", "generic", ev, "--session", "long"); r.Code != 0 {
			return "", fmt.Errorf("hook: exit %d", r.Code)
		}
	}
	pr := w.Lanes("", "pr", "long", "--number", "7", "--ci", "failing")
	after, err := w.Ls()
	if err != nil {
		return "", err
	}
	got := after["long"]
	prs, err := prFacts(w)
	if err != nil {
		return "", err
	}
	doc := w.Lanes("", "doctor")
	evidence := fmt.Sprintf("8 MiB line then %d hook events and lanes pr: dropped %v, applied %d, activity %s; lanes pr exit %d (%s); PRs %v; doctor: %s",
		len(events), got.EventsDropped, got.EventsApplied, got.Activity, pr.Code, strings.TrimSpace(pr.Stdout+pr.Stderr), prs["long"], grepLine(doc.Stdout, "spool"))
	switch {
	case got.EventsDropped["too_long"] != 1 || len(got.EventsDropped) != 1:
		return evidence, fmt.Errorf("want exactly too_long 1")
	case got.EventsApplied != len(events)+1 || got.Activity != "idle": // + the PR line
		return evidence, fmt.Errorf("the events after the long line did not all apply")
	case pr.Code != 0 || len(prs["long"]) != 1 || prs["long"][0]["ci"] != "failing":
		return evidence, fmt.Errorf("the PR fact after the long line did not apply")
	case !strings.Contains(doc.Stdout, "spool: nothing waiting"):
		return evidence, fmt.Errorf("doctor still sees a backlog")
	}
	return evidence, nil
}

// drillFullDisk: the state dir's filesystem fills up (a real 256 KiB tmpfs)
// while hooks write. The write the disk cuts short leaves a blank line, not
// a fragment; ls shows the stored state with a warning; doctor says the disk
// is full; once space is back the next event applies and nothing is counted
// malformed.
func drillFullDisk(w *world.World) (string, error) {
	if err := os.MkdirAll(w.State, 0o700); err != nil {
		return "", err
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", w.State).CombinedOutput(); err != nil {
		return "", fmt.Errorf("a real full disk needs a tmpfs mount (run the drills as root): %v %s", err, out)
	}
	w.OnClose(func() {
		if exec.Command("umount", w.State).Run() != nil {
			_ = exec.Command("umount", "-l", w.State).Run()
		}
	})
	s, err := newSession(w, "full")
	if err != nil {
		return "", err
	}
	if r := w.Lanes("", "hook", "generic", "active", "--session", "full"); r.Code != 0 {
		return "", fmt.Errorf("hook: exit %d", r.Code)
	}
	if _, err := w.Ls(); err != nil {
		return "", err
	}
	// Lines waiting to be ingested, so the next cycle must grow the store
	// (history pages): on the full disk it cannot commit.
	var waiting []byte
	for i := range backlogLines {
		l, _ := json.Marshal(state.Line{V: 1, At: time.Now().UTC(), Session: s.ID, Launch: s.Launch, Agent: "generic",
			Event: []string{"idle", "active"}[i%2]})
		waiting = append(append(waiting, l...), '\n')
	}
	if err := appendSpool(w, s.ID, waiting); err != nil {
		return "", err
	}
	// Pad the spool's last page with a blank line so that 50 bytes stay free
	// in it: once the disk is full, the next hook line fits only in part.
	spool := store.SpoolPath(w.State, s.ID)
	fi, err := os.Stat(spool)
	if err != nil {
		return "", err
	}
	page := int64(os.Getpagesize())
	pad := (page-fi.Size()%page-50+page)%page - 1
	if err := appendSpool(w, s.ID, append(bytes.Repeat([]byte(" "), int(pad)), '\n')); err != nil {
		return "", err
	}
	filler := filepath.Join(w.State, "filler")
	if err := fillDisk(filler); err != nil {
		return "", err
	}
	for range 3 {
		if r := w.Lanes("", "hook", "generic", "idle", "--session", "full"); r.Code != 0 || r.Stdout+r.Stderr != "" {
			return "", fmt.Errorf("hook on a full disk: exit %d %q", r.Code, r.Stdout+r.Stderr)
		}
	}
	raw, _ := os.ReadFile(spool)
	whole, blank, torn := 0, 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			blank++
		case json.Valid([]byte(l)):
			whole++
		default:
			torn++
		}
	}
	ls := w.Lanes("", "ls")
	doc := w.Lanes("", "doctor")
	evidence := fmt.Sprintf("%d lines waiting, disk full with 50 B left in the spool's last page, 3 hooks: the spool holds %d whole lines, %d blank (our pad + the write cut short, blanked), %d torn, ends in newline %v\n"+
		"ls: exit %d, %q, stderr %q\ndoctor: exit %d, %q",
		backlogLines, whole, blank, torn, strings.HasSuffix(string(raw), "\n"), ls.Code, grepLine(ls.Stdout, "full"), firstLine(ls.Stderr),
		doc.Code, grepLine(doc.Stdout, "disk full")+" / "+grepLine(doc.Stdout, "lost"))
	switch {
	case torn != 0 || !strings.HasSuffix(string(raw), "\n"):
		return evidence, fmt.Errorf("a short write left a fragment in the spool")
	case whole != 1+backlogLines || blank != 2 || int64(len(raw))%page != 0:
		return evidence, fmt.Errorf("want the write the disk cut short to fill the page, blanked")
	case ls.Code != 0 || !strings.Contains(ls.Stdout, "full") || !strings.Contains(ls.Stderr, "cannot be written"):
		return evidence, fmt.Errorf("ls must show the stored state with a warning")
	case doc.Code == 0 || !strings.Contains(doc.Stdout, "disk full"):
		return evidence, fmt.Errorf("doctor did not report the full disk")
	case !strings.Contains(doc.Stdout, "may have been lost"):
		return evidence, fmt.Errorf("doctor must not claim hook events were lost: it cannot know")
	}
	if err := os.Remove(filler); err != nil {
		return evidence, err
	}
	if r := w.Lanes("", "hook", "generic", "blocked", "--session", "full"); r.Code != 0 {
		return evidence, fmt.Errorf("hook after freeing space: exit %d", r.Code)
	}
	after, err := w.Ls()
	if err != nil {
		return evidence, err
	}
	got := after["full"]
	evidence += fmt.Sprintf("\nspace freed, one more event: status %s, applied %d (1 + %d waiting + 1 after), dropped %v",
		got.Status, got.EventsApplied, backlogLines, got.EventsDropped)
	if got.Status != "needs_input" || got.EventsApplied != backlogLines+2 || len(got.EventsDropped) != 0 {
		return evidence, fmt.Errorf("the event after the full disk was lost, or a line was dropped")
	}
	return evidence, nil
}

// backlogLines is how many lines wait in the spool when the disk fills.
const backlogLines = 200

// fillDisk writes zeros to path until the filesystem is full.
func fillDisk(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		if _, err := f.Write(make([]byte, 4096)); errors.Is(err, syscall.ENOSPC) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// drillHookEdges: a hook with EVENT and a silent stdin left open returns;
// lanes pr refuses empty vocab values and its line applies behind a line
// that never ended; terminal control in a payload never reaches the history.
func drillHookEdges(w *world.World) (string, error) {
	e, err := newSession(w, "edge")
	if err != nil {
		return "", err
	}
	took, err := hookWithSilentStdin(w)
	if err != nil {
		return "", err
	}
	var lines []string
	empty := w.Lanes("", "pr", "edge", "--number", "1", "--review", "")
	lines = append(lines, fmt.Sprintf("hook claude Stop, stdin open and silent: returned in %v", took.Round(100*time.Millisecond)),
		fmt.Sprintf("pr --review '': exit %d, %q", empty.Code, firstLine(empty.Stderr)))
	if empty.Code != 2 || !strings.Contains(empty.Stderr, "want one of") {
		return strings.Join(lines, "\n"), fmt.Errorf("an empty vocab value must be a usage error")
	}

	// A writer that never ends its line: lanes pr's line starts a line of
	// its own behind it all the same (docs/design.md §6).
	if err := appendSpool(w, e.ID, bytes.Repeat([]byte("g"), state.MaxLineBytes+1)); err != nil {
		return "", err
	}
	behind := w.Lanes("", "pr", "edge", "--number", "2", "--ci", "failing")
	lines = append(lines, fmt.Sprintf("pr behind an endless line: exit %d, %q", behind.Code, firstLine(behind.Stdout+behind.Stderr)))
	if behind.Code != 0 || !strings.Contains(behind.Stdout, "ci failing") {
		return strings.Join(lines, "\n"), fmt.Errorf("lanes pr's line was lost behind an unended one")
	}

	evil := "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u009b31m\x7f"
	payload, _ := json.Marshal(map[string]string{"hook_event_name": "SessionEnd", "reason": "other" + evil, "session_id": "s" + evil})
	if r := w.Lanes(string(payload), "hook", "claude", "--session", "edge"); r.Code != 0 {
		return "", fmt.Errorf("hook: exit %d", r.Code)
	}
	if _, err := w.Ls(); err != nil {
		return "", err
	}
	var hist []state.Transition
	if err := store.New(w.State).View(func(tx *store.Tx) error {
		var err error
		hist, err = tx.History(e.ID, 5)
		return err
	}); err != nil {
		return "", err
	}
	detail := ""
	if len(hist) > 0 {
		detail = hist[len(hist)-1].Detail
	}
	lines = append(lines, fmt.Sprintf("payload reason with OSC 52, CSI, C1 and DEL: history detail %q", detail))
	if detail != "SessionEnd:other" {
		return strings.Join(lines, "\n"), fmt.Errorf("control characters reached the history")
	}
	return strings.Join(lines, "\n"), nil
}

// hookWithSilentStdin runs `lanes hook claude Stop` with a stdin pipe that
// stays open and never carries a byte, and says how long it took.
func hookWithSilentStdin(w *world.World) (time.Duration, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer pw.Close()
	cmd := exec.Command(w.Bin, "hook", "claude", "Stop", "--session", "edge")
	cmd.Env, cmd.Stdin = w.Env(), pr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pr.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return 0, fmt.Errorf("lanes hook claude Stop still waited on its open, silent stdin after 15 s")
	}
}
