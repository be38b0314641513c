package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lanes/scripts/internal/modelserver"
	"lanes/scripts/internal/svgshot"
	"lanes/scripts/internal/world"
	"lanes/theme"
)

// The README's picture: a real board over real Claude Code sessions, one
// in each lane, each started from a profile of the config file.
const (
	pictureCols, pictureRows = 132, 14
)

// pictureCard is one session of the picture and how it gets to its lane.
type pictureCard struct {
	name, branch, prompt string
	turns                []modelserver.Turn
	pr                   []string // `lanes pr NAME …` flags once its turn ended
	exit                 bool     // killed once its turn ended (Done)
	want                 string   // its zone once ready
}

func pictureCards() []pictureCard {
	long := strings.Repeat("Reading the stylesheets and the theme tokens. ", 60)
	return []pictureCard{
		{name: "api", branch: "fix-login", prompt: "Run the test suite.", want: "needs_you",
			turns: []modelserver.Turn{{modelserver.Shell("npm test")}}},
		{name: "web", branch: "dark-mode", prompt: "Add a dark mode.", want: "working",
			turns: []modelserver.Turn{{modelserver.SlowText(long, 900*time.Millisecond)}}},
		{name: "docs", branch: "install-guide", prompt: "Rewrite the install guide.", want: "in_review",
			turns: []modelserver.Turn{{modelserver.Text("Rewrote the install guide: three steps now.")}},
			pr:    []string{"--number", "41", "--review", "pending", "--ci", "passing"}},
		{name: "auth", branch: "token-refresh", prompt: "Refresh tokens before they expire.", want: "ready_to_merge",
			turns: []modelserver.Turn{{modelserver.Text("Tokens now refresh a minute before they expire.")}},
			pr:    []string{"--number", "38", "--review", "approved", "--ci", "passing", "--mergeable", "yes"}},
		{name: "spike", branch: "new-parser", prompt: "Try the new parser.", want: "done", exit: true,
			turns: []modelserver.Turn{{modelserver.Text("The new parser is 3x faster; notes in SPIKE.md.")}}},
	}
}

// pictures draws the board into dir/board-dark.svg and dir/board-light.svg.
func pictures(cfg config, dir string) error {
	a, _ := findAgent("claude")
	w, err := world.New(".")
	if err != nil {
		return err
	}
	defer w.Close()
	cards := pictureCards()
	if err := pictureWorld(cfg, a, w, cards); err != nil {
		return err
	}
	for _, c := range cards {
		if r := w.Lanes("", "new", c.name, "--profile", c.name); r.Code != 0 {
			return fmt.Errorf("lanes new %s: %s", c.name, r.Stderr)
		}
	}
	for _, c := range cards {
		if err := pictureTurn(w, c); err != nil {
			return err
		}
	}
	if !world.Poll(60*time.Second, 500*time.Millisecond, func() bool { return inLanes(w, cards) }) {
		ls, _ := w.Ls()
		return fmt.Errorf("the cards never reached their lanes: %+v", ls)
	}
	if err := w.StartBoard("view", pictureCols, pictureRows, "COLORTERM=truecolor"); err != nil {
		return err
	}
	for i, p := range []theme.Palette{theme.Dark, theme.Light} {
		if i == 1 {
			before := w.Screen("view")
			_, _ = w.Tmux("view", "send-keys", "t")
			world.WaitFor(5*time.Second, func() bool { return w.Screen("view") != before })
		}
		// Every card, and the key line back (no flash over it).
		if !world.WaitFor(20*time.Second, func() bool { return boardShows(w.Screen("view"), cards) }) {
			return fmt.Errorf("the board never showed every card:\n%s", w.Screen("view"))
		}
		time.Sleep(time.Second) // a frame after the last card moved
		screen, err := w.Tmux("view", "capture-pane", "-p", "-e")
		if err != nil {
			return err
		}
		name := filepath.Join(dir, "board-"+map[bool]string{true: "dark", false: "light"}[i == 0]+".svg")
		if err := os.WriteFile(name, svgshot.Render(screen, pictureCols, pictureRows, p.Text, p.Background, "lanes"), 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", name)
	}
	return nil
}

// pictureWorld writes Claude Code's settings, a repository and a profile
// per card (its model URL is its own), and starts the tmux server.
func pictureWorld(cfg config, a agent, w *world.World, cards []pictureCard) error {
	h := &home{dir: w.Home, seed: cfg.seed, self: cfg.self}
	projects := map[string]any{}
	var profiles strings.Builder
	profiles.WriteString("theme = \"dark\"\n")
	for _, c := range cards {
		dir := filepath.Join(w.Root, "src", c.name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		if err := gitRepo(dir); err != nil {
			return err
		}
		if out, err := exec.Command("git", "-C", dir, "checkout", "-q", "-b", c.branch).CombinedOutput(); err != nil {
			return fmt.Errorf("git checkout: %v %s", err, out)
		}
		projects[dir] = map[string]any{"hasTrustDialogAccepted": true}
		key := "picture-" + c.name + "-" + randHex()
		if err := cfg.srv.Assign(key, modelserver.Scenario{Name: key, Turns: c.turns}); err != nil {
			return err
		}
		args := make([]string, len(a.args))
		for i, s := range a.args {
			args[i] = strconv.Quote(s)
		}
		fmt.Fprintf(&profiles, "\n[profiles.%s]\nagent = \"claude\"\nargs = [%s]\ndir = %q\nenv = { ANTHROPIC_BASE_URL = %q }\n",
			c.name, strings.Join(args, ", "), dir, cfg.srv.URL(key))
	}
	text := profiles.String()
	if err := h.write(".claude.json", map[string]any{"hasCompletedOnboarding": true, "projects": projects}); err != nil {
		return err
	}
	cfgDir := filepath.Join(w.Home, ".config", "lanes")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(text), 0o600); err != nil {
		return err
	}
	env := a.env(h, "")
	w.Extra = []string{"PATH=" + filepath.Join(cfg.cache, "node_modules", ".bin") + ":" + os.Getenv("PATH")}
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ANTHROPIC_BASE_URL=") {
			w.Extra = append(w.Extra, kv)
		}
	}
	if err := w.StartServer(); err != nil {
		return err
	}
	_, err := w.Tmux(w.Socket, "set-option", "-g", "default-size", "120x40")
	return err
}

// pictureTurn sends a card its prompt, and once the turn ended records
// its PR or kills the session.
func pictureTurn(w *world.World, c pictureCard) error {
	if !world.Poll(90*time.Second, time.Second, func() bool { return w.Lanes("", "send", c.name, c.prompt).Code == 0 }) {
		return fmt.Errorf("%s never took its prompt: %s", c.name, w.Lanes("", "peek", c.name).Stdout)
	}
	if c.pr == nil && !c.exit {
		return nil
	}
	if !world.Poll(60*time.Second, 300*time.Millisecond, func() bool {
		ls, _ := w.Ls()
		return ls[c.name].Activity == "idle" && ls[c.name].EventsApplied > 2
	}) {
		return fmt.Errorf("%s's turn never ended", c.name)
	}
	if c.pr != nil {
		if r := w.Lanes("", append([]string{"pr", c.name}, c.pr...)...); r.Code != 0 {
			return fmt.Errorf("lanes pr %s: %s", c.name, r.Stderr)
		}
	}
	if c.exit {
		if r := w.Lanes("", "kill", c.name); r.Code != 0 {
			return fmt.Errorf("lanes kill %s: %s", c.name, r.Stderr)
		}
	}
	return nil
}

// inLanes reports whether every card is in its lane.
func inLanes(w *world.World, cards []pictureCard) bool {
	ls, err := w.Ls()
	if err != nil {
		return false
	}
	for _, c := range cards {
		if ls[c.name].Zone != c.want {
			return false
		}
	}
	return true
}

// boardShows reports whether the board's screen shows every card and its
// key line.
func boardShows(screen string, cards []pictureCard) bool {
	for _, c := range cards {
		if !strings.Contains(screen, c.name) {
			return false
		}
	}
	return strings.Contains(screen, "? help")
}
