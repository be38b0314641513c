package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillSpoolUnwritable: the spool cannot be written; hooks still exit 0
// quickly, log the failure, and doctor reports it.
func drillSpoolUnwritable(w *world.World) (string, error) {
	if err := w.NewSleeper("u"); err != nil {
		return "", err
	}
	spool := filepath.Join(w.State, "spool")
	_ = os.RemoveAll(spool)
	// A file where the directory should be: writes fail for root too.
	if err := os.WriteFile(spool, nil, 0o600); err != nil {
		return "", err
	}
	r := w.Lanes(`{"hook_event_name":"Stop"}`, "hook", "claude", "--session", "u")
	log, _ := os.ReadFile(filepath.Join(w.State, "hook-errors.log"))
	doc := w.Lanes("", "doctor")
	evidence := fmt.Sprintf("hook: exit %d in %v, stdout %q; hook-errors.log: %q; doctor: exit %d",
		r.Code, r.Took.Round(time.Millisecond), r.Stdout, firstLine(string(log)), doc.Code)
	switch {
	case r.Code != 0 || r.Stdout != "" || r.Stderr != "" || r.Took > time.Second:
		return evidence, fmt.Errorf("the hook must exit 0 quickly and silently")
	case !strings.Contains(string(log), "spool"):
		return evidence, fmt.Errorf("the failure is not in hook-errors.log")
	case doc.Code == 0 || !strings.Contains(doc.Stdout, "hook error"):
		return evidence + "\n" + doc.Stdout, fmt.Errorf("doctor did not report the hook errors")
	}
	return evidence, nil
}

// drillHostile: every kind of bad spool line and file is counted, nothing
// is applied wrongly, and nothing outside the state dir is touched.
func drillHostile(w *world.World) (string, error) {
	if err := w.NewSleeper("h"); err != nil {
		return "", err
	}
	if err := w.NewSleeper("t"); err != nil {
		return "", err
	}
	s, err := w.Ls()
	if err != nil {
		return "", err
	}
	h, t := s["h"], s["t"]
	if r := w.Lanes("", "kill", "t"); r.Code != 0 {
		return "", fmt.Errorf("kill: %s", r.Stderr)
	}
	outside := filepath.Join(w.Root, "outside.jsonl")
	_ = os.WriteFile(outside, []byte("untouched\n"), 0o600)
	spool := filepath.Join(w.State, "spool")
	_ = os.MkdirAll(spool, 0o700)
	line := func(session, launch, event string) string {
		b, _ := json.Marshal(map[string]any{"v": 1, "at": time.Now().UTC(), "session": session, "launch": launch, "agent": "generic", "event": event})
		return string(b) + "\n"
	}
	bad := strings.Join([]string{
		"{bad json\n",
		`{"v":7,"session":"` + h.ID + `","agent":"generic","event":"idle"}` + "\n",
		`{"v":1,"session":"` + h.ID + `","agent":"generic","event":"` + strings.Repeat("x", 1<<20) + "\"}\n",
		"{\"v\":1,\"session\":\"" + h.ID + "\",\"agent\":\"generic\",\"event\":\"\xc3\x28\"}\n",
		line("../../etc", h.Launch, "active"),
		line(h.ID, "stale-launch", "blocked"),
		line(h.ID, h.Launch, "no-such-event"),
	}, "")
	f, _ := os.OpenFile(filepath.Join(spool, h.ID+".jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	f.WriteString(bad + line(h.ID, h.Launch, "active"))
	f.Close()
	_ = os.WriteFile(filepath.Join(spool, t.ID+".jsonl"), []byte(line(t.ID, t.Launch, "active")), 0o600)
	_ = os.Symlink(outside, filepath.Join(spool, "zzzzzzzz.jsonl"))
	_ = os.WriteFile(filepath.Join(spool, "..x.jsonl"), []byte(line(h.ID, h.Launch, "idle")), 0o600)
	r := w.Lanes("", "hook", "generic", "active", "--session", "../../../tmp/x")
	if r.Code != 0 {
		return "", fmt.Errorf("a hostile --session must still exit 0")
	}
	s, err = w.Ls()
	if err != nil {
		return "", err
	}
	h, t = s["h"], s["t"]
	doc := w.Lanes("", "doctor")
	body, _ := os.ReadFile(outside)
	evidence := fmt.Sprintf("h: applied %d, dropped %v, status %s; t (terminated): dropped %v; doctor: %s",
		h.EventsApplied, h.EventsDropped, h.Status, t.EventsDropped, grepLine(doc.Stdout, "dropped"))
	want := map[string]int{"bad_json": 1, "bad_version": 1, "too_long": 1, "bad_utf8": 1, "unknown_session": 1, "stale_launch": 1, "unknown_event": 1}
	for k, n := range want {
		if h.EventsDropped[k] != n {
			return evidence, fmt.Errorf("dropped[%s] = %d, want %d", k, h.EventsDropped[k], n)
		}
	}
	switch {
	case h.EventsApplied != 1 || h.Status != "working":
		return evidence, fmt.Errorf("the one good line was not applied after the bad ones")
	case t.EventsDropped["terminated"] != 1 || !t.IsTerminated:
		return evidence, fmt.Errorf("an event for a terminated session was not dropped")
	case string(body) != "untouched\n":
		return evidence, fmt.Errorf("a file outside the state dir was touched")
	case !strings.Contains(doc.Stdout, "bad_json 1"):
		return evidence, fmt.Errorf("doctor does not report the malformed lines")
	}
	if _, err := os.Stat("/tmp/x.jsonl"); err == nil {
		return evidence, fmt.Errorf("a hook wrote outside the state dir")
	}
	return evidence, nil
}

// drillClockBack: lines whose time goes backwards still apply in spool
// order, and no age is negative.
func drillClockBack(w *world.World) (string, error) {
	if err := w.NewSleeper("c"); err != nil {
		return "", err
	}
	s, err := w.Ls()
	if err != nil {
		return "", err
	}
	c := s["c"]
	now := time.Now().UTC()
	var b strings.Builder
	for i, ev := range []string{"active", "blocked", "active", "idle"} {
		at := now.Add(time.Duration(-i) * time.Hour) // each line an hour earlier than the last
		l, _ := json.Marshal(map[string]any{"v": 1, "at": at, "session": c.ID, "launch": c.Launch, "agent": "generic", "event": ev})
		b.Write(append(l, '\n'))
	}
	_ = os.MkdirAll(filepath.Join(w.State, "spool"), 0o700)
	_ = os.WriteFile(filepath.Join(w.State, "spool", c.ID+".jsonl"), []byte(b.String()), 0o600)
	s, err = w.Ls()
	if err != nil {
		return "", err
	}
	c = s["c"]
	table := w.Lanes("", "ls")
	since, _ := time.Parse(time.RFC3339, c.Since)
	evidence := fmt.Sprintf("4 lines each an hour earlier: activity %s (last line: idle), applied %d, since %s; ls: %s",
		c.Activity, c.EventsApplied, c.Since, grepLine(table.Stdout, "c "))
	switch {
	case c.Activity != "idle" || c.EventsApplied != 4:
		return evidence, fmt.Errorf("the spool order was not followed")
	case since.After(time.Now().Add(time.Second)):
		return evidence, fmt.Errorf("since lies in the future")
	case strings.Contains(table.Stdout, "-"+"1") || strings.Contains(grepLine(table.Stdout, "c "), " -"):
		return evidence, fmt.Errorf("a negative age is shown")
	}
	return evidence, nil
}
