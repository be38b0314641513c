package main

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/world"
	"lanes/state"
	"lanes/state/store"
)

// drillSpoolTiming: the same damaged spool bytes, written at once to one
// session and in pieces (a cycle between each) to another, apply and drop
// the same lines; a file rotated while a line over the limit is skipped
// still drains the line a late hook appends to it.
func drillSpoolTiming(w *world.World) (string, error) {
	once, err := newSession(w, "once")
	if err != nil {
		return "", err
	}
	cut, err := newSession(w, "cut")
	if err != nil {
		return "", err
	}
	stream := func(s world.Session) string {
		line := func(event string) string { return spoolLine(s, event) }
		g := func(n int) string { return strings.Repeat("g", n) }
		return line("active") + line("blocked")[:30] + line("idle") +
			g(state.MaxLineBytes-50) + line("active") + // a fragment near the limit
			g(state.MaxLineBytes+100) + line("blocked") + // a fragment over it
			g(state.MaxLineBytes) + line("idle") // a fragment at it
	}
	if err := appendSpool(w, once.ID, []byte(stream(once))); err != nil {
		return "", err
	}
	body := stream(cut)
	pieces := 12
	if *quick {
		pieces = 4
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	cuts := []int{0, len(body)}
	for range pieces - 1 {
		cuts = append(cuts, 1+rng.IntN(len(body)-1))
	}
	slices.Sort(cuts)
	for i := 1; i < len(cuts); i++ {
		if err := appendSpool(w, cut.ID, []byte(body[cuts[i-1]:cuts[i]])); err != nil {
			return "", err
		}
		if _, err := w.Ls(); err != nil { // a cycle between the pieces
			return "", err
		}
	}
	s, err := w.Ls()
	if err != nil {
		return "", err
	}
	once, cut = s["once"], s["cut"]
	evidence := fmt.Sprintf("at once: applied %d, dropped %v, %s\ncut at %v: applied %d, dropped %v, %s",
		once.EventsApplied, once.EventsDropped, once.Status, cuts[1:len(cuts)-1], cut.EventsApplied, cut.EventsDropped, cut.Status)
	want := map[string]int{"bad_json": 3, "too_long": 1}
	if once.EventsApplied != 5 || !maps.Equal(once.EventsDropped, want) {
		return evidence, fmt.Errorf("read at once: want 5 applied, dropped %v", want)
	}
	if cut.EventsApplied != once.EventsApplied || !maps.Equal(cut.EventsDropped, once.EventsDropped) || cut.Status != once.Status {
		return evidence, fmt.Errorf("the same bytes read in pieces gave another result")
	}
	rot, err := rotateMidSkip(w, cut)
	return evidence + "\n" + rot, err
}

// rotateMidSkip fills the session's spool past the rotation size, ending in
// a line that never ends, so ingest rotates the file while skipping it; a
// hook that opened the file before the rename then appends a whole line.
func rotateMidSkip(w *world.World, s world.Session) (string, error) {
	line := spoolLine(s, "active")
	fill := strings.Repeat(line, store.RotateBytes/len(line)+1) + strings.Repeat("g", state.MaxLineBytes+1)
	if err := appendSpool(w, s.ID, []byte(fill)); err != nil {
		return "", err
	}
	if _, err := w.Ls(); err != nil {
		return "", err
	}
	rotated, _ := filepath.Glob(filepath.Join(store.SpoolDir(w.State), s.ID+".*.jsonl"))
	if len(rotated) != 1 {
		return "", fmt.Errorf("the spool file was not rotated: %v", rotated)
	}
	late := spoolLine(s, "blocked")
	f, err := os.OpenFile(rotated[0], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(late)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	after, err := w.Ls()
	if err != nil {
		return "", err
	}
	got := after[s.Name]
	evidence := fmt.Sprintf("rotated mid-skip, then a late hook's line: %s, applied %d (+%d), dropped %v",
		got.Activity, got.EventsApplied, got.EventsApplied-s.EventsApplied, got.EventsDropped)
	if got.Activity != "blocked" || got.EventsApplied != s.EventsApplied+store.RotateBytes/len(line)+2 {
		return evidence, fmt.Errorf("the late hook's line in the rotated file was lost")
	}
	return evidence, nil
}

// spoolLine is the line `lanes hook generic EVENT` writes for s.
func spoolLine(s world.Session, event string) string {
	b, _ := state.EncodeLine(state.Line{V: state.LineVersion, At: time.Now().UTC(), Session: s.ID, Launch: s.Launch, Agent: "generic", Event: event})
	return string(b) + "\n"
}
