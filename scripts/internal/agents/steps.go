package main

import (
	"fmt"
	"strings"
	"time"

	adapter "lanes/agent"
	m "lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/world"
	"lanes/state"
)

// Steps several scenarios share.

// asked sends a prompt whose turn calls a tool that asks, and waits for the
// card to say so and for the dialog to show.
func asked(r *run) error {
	if err := r.prompt("Run the command."); err != nil {
		return err
	}
	if _, err := r.expect("permission asked → needs_input", turnDeadline, needs); err != nil {
		return err
	}
	if err := r.waitScreen("the permission dialog", 30*time.Second, r.a.dialog); err != nil {
		return err
	}
	r.capture("dialog")
	// A person reads the dialog before a key: Claude Code 2.1.332 drops a
	// key sent within about a second of its dialog opening.
	time.Sleep(adapter.KeyGuard(state.Agent(r.a.name)))
	return nil
}

// slowTurns: a text streamed slowly enough to be interrupted.
func slowTurns(agent, bool) ([]m.Turn, string) {
	slow := m.SlowText(strings.Repeat("Thinking about it slowly. ", 40), 700*time.Millisecond)
	return append([]m.Turn{{slow}}, texts...), ""
}

// interrupt: a turn stopped with the agent's interrupt key shows as idle
// and interrupted.
func interrupt(r *run) error {
	if err := r.prompt("Tell me a long story."); err != nil {
		return err
	}
	if _, err := r.expect("turn → working", turnDeadline, working); err != nil {
		return err
	}
	if err := r.waitScreen("the slow stream", 30*time.Second, []string{"Thinking about it"}); err != nil {
		return err
	}
	r.capture("busy")
	if err := r.press(r.a.interrupt); err != nil {
		return err
	}
	if err := r.witnessed("interrupted → idle+interrupted", witnessDeadline, is("idle", "interrupted")); err != nil {
		return err
	}
	r.capture("interrupted")
	if !r.a.restores {
		return nil
	}
	// Its input holds the prompt again: send refuses, saying so; once
	// the human cleared it, a prompt is taken.
	if code, msg := r.send("Hello?"); code == 0 || !strings.Contains(msg, "input already holds text") {
		return fmt.Errorf("send after the interrupt put the prompt back: exit %d %q, want refused, naming the input", code, msg)
	}
	if err := r.press("C-u"); err != nil {
		return err
	}
	return afterwards(r)
}

// captureIdle records the idle screen once the agent has drawn it: its
// prompt, and no busy indicator (Claude Code 2.1.332's footer says "esc
// to interrupt" a moment after its Stop hook).
func (r *run) captureIdle() { r.captureReady("idle") }

// captureReady records as step the screen of the agent waiting for its
// human, once drawn.
func (r *run) captureReady(step string) {
	busy := lanesMarkers(state.Agent(r.a.name)).Busy
	world.Poll(5*time.Second, 250*time.Millisecond, func() bool {
		screen := r.capture("")
		return hasAny(screen, r.a.ready) && !hasAny(screen, busy)
	})
	r.capture(step)
}
