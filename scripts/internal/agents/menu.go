package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

func init() { scenarios = append(scenarios, menu) }

// menu: a slash command's menu, opened at the prompt, fires no hook; the
// card says "in a menu" while it shows, send refuses (its text would
// search or pick in it), and Esc leaves the card plain idle (issue 32,
// item 6).
var menu = scenario{name: "menu", turns: allTexts,
	drive: func(r *run) error {
		if err := firstTurnReady(r); err != nil {
			return err
		}
		if err := r.typeText(r.a.menu); err != nil {
			return err
		}
		if _, err := r.expect(r.a.menu+" → idle + menu", 15*time.Second, is("idle", "menu")); err != nil {
			return err
		}
		r.capture("menu")
		if code, msg := r.send("Hello again."); code == 0 || !strings.Contains(msg, "menu") {
			return fmt.Errorf("lanes send into the menu: exit %d %q, want a refusal naming the menu", code, msg)
		}
		if err := r.press("Escape"); err != nil {
			return err
		}
		if _, err := r.expect("Esc → idle, no menu", 15*time.Second, func(s world.Session) bool {
			return s.Status == "idle" && !slices.Contains(s.Marks, "menu")
		}); err != nil {
			return err
		}
		return afterwards(r)
	}}

// typeText types text into the agent's pane and presses Enter, as a
// human would (not through lanes).
func (r *run) typeText(text string) error {
	r.act()
	if out, err := r.w.Tmux(r.w.Socket, "send-keys", "-t", r.pane, "-l", text); err != nil {
		return fmt.Errorf("typing %q: %v %s", text, err, out)
	}
	time.Sleep(500 * time.Millisecond) // a human's pause before Enter
	return r.press("Enter")
}
