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

// turnsServed counts the main requests the model server answered for this run.
func (r *run) turnsServed() int {
	n := 0
	for _, e := range r.srv.Log(r.key) {
		if e.Kind == "main" {
			n++
		}
	}
	return n
}

// waitTurns waits until the agent has asked the model for n turns.
func (r *run) waitTurns(n int, deadline time.Duration) error {
	if !world.Poll(deadline, 200*time.Millisecond, func() bool { return r.turnsServed() >= n }) {
		return fmt.Errorf("the agent asked the model for %d turns, want %d (within %s)", r.turnsServed(), n, deadline)
	}
	return nil
}

// offered reports whether the agent's last turn request offered tool name,
// and the names it offered.
func (r *run) offered(name string) (bool, []string) {
	log := r.srv.Log(r.key)
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Kind != "main" && log[i].Kind != "retry" {
			continue
		}
		names := toolNames(log[i].Body)
		for _, n := range names {
			if n == name {
				return true, names
			}
		}
		return false, names
	}
	return false, nil
}

// toolNames reads tool names from any of the four APIs' request bodies.
func toolNames(body json.RawMessage) []string {
	var b struct {
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Decls []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &b)
	var out []string
	for _, t := range b.Tools {
		for _, n := range []string{t.Name, t.Function.Name} {
			if n != "" {
				out = append(out, n)
			}
		}
		for _, d := range t.Decls {
			out = append(out, d.Name)
		}
	}
	return out
}

// requests summarises the model server's log for this run, for a failure's
// evidence: kind, path and turn of each request, with its time from launch.
func (r *run) requests() string {
	var parts []string
	for _, e := range r.srv.Log(r.key) {
		p := fmt.Sprintf("%.1fs %s %s", e.Time.Sub(r.started).Seconds(), e.Kind, e.Path)
		if e.Turn > 0 {
			p += fmt.Sprintf(" #%d", e.Turn)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// keepModelLog writes, with --keep, the model server's log for this run
// (every request, and the usage each answer reported) to modellog.json in
// the world, since the server goes with the harness: what the agent was
// told is what its own records are checked against.
func (r *run) keepModelLog() {
	b, err := json.MarshalIndent(r.srv.Log(r.key), "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(r.w.Root, "modellog.json"), b, 0o600)
	}
	if err != nil {
		fmt.Printf("       keeping the model log: %v\n", err)
	}
}
