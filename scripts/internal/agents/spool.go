package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// spoolLines are the session's spool lines, in order.
func (r *run) spoolLines(id string) []string {
	b, err := os.ReadFile(filepath.Join(r.w.State, "spool", id+".jsonl"))
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// hookLatencies is, per spool line, the time from the hook writing it to
// the first `ls` that counted it (applied or dropped).
func (r *run) hookLatencies(id string) []time.Duration {
	var out []time.Duration
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, line := range r.spoolLines(id) {
		var l struct {
			At time.Time `json:"at"`
		}
		if json.Unmarshal([]byte(line), &l) != nil || l.At.IsZero() {
			continue
		}
		for _, s := range r.samples {
			if s.ok && s.s.ID == id && counted(s.s) > i && !s.at.Before(l.At) {
				out = append(out, s.at.Sub(l.At))
				break
			}
		}
	}
	return out
}

func counted(s world.Session) int {
	n := s.EventsApplied
	for _, d := range s.EventsDropped {
		n += d
	}
	return n
}

// events are the spool's event names in order, for the evidence line.
func (r *run) events(id string) []string {
	var out []string
	for _, line := range r.spoolLines(id) {
		var l struct {
			Event string `json:"event"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Event != "" {
			out = append(out, l.Event)
		}
	}
	return out
}
