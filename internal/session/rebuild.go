package session

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanes/agent"
	"lanes/state"
	"lanes/state/git"
	"lanes/state/store"
	"lanes/tmux"
)

// RepairTraces gathers what shows of sessions outside the store, for a
// repair to rebuild the records it cannot read (docs/design.md §7): the
// hook's name and pane indexes, the hook dirs, and the lanes sessions tmux
// runs (read only once the store is found damaged).
func (s *Service) RepairTraces(ctx context.Context, stateDir string) store.Traces {
	tr := store.Traces{Names: map[string]string{}, Launches: map[string]string{}, Agents: map[string]state.Agent{}}
	index := func(sub string, each func(file, id, rest string)) {
		entries, _ := os.ReadDir(filepath.Join(stateDir, sub))
		for _, de := range entries {
			b, err := os.ReadFile(filepath.Join(stateDir, sub, de.Name()))
			if id, rest, _ := strings.Cut(strings.TrimSpace(string(b)), " "); err == nil && state.ValidID(id) {
				each(de.Name(), id, rest)
			}
		}
	}
	index("names", func(name, id, _ string) { tr.Names[id] = name })
	index("panes", func(_, id, launch string) { tr.Launches[id] = launch })
	hooks, _ := os.ReadDir(filepath.Join(stateDir, "hooks"))
	for _, de := range hooks {
		if a := agent.InjectedFor(stateDir, de.Name()); a != "" && state.ValidID(de.Name()) {
			tr.Agents[de.Name()] = a
		}
	}
	tr.Live = func(sockets []string) []store.LiveSession {
		var out []store.LiveSession
		for _, socket := range slices.Compact(slices.Sorted(slices.Values(append(sockets, s.Socket)))) {
			out = append(out, s.liveSessions(ctx, socket, stateDir)...)
		}
		return out
	}
	return tr
}

// startFields are what a repair reads of each pane, separated as the
// collector's read is.
var startFields = []string{"@lanes_id", "session_name", "session_id", "pane_id", "pane_pid",
	"pane_current_path", "session_created", "pane_start_command", "session_path"}

// liveSessions are the sessions of the server on socket that carry
// @lanes_id and belong to stateDir (their LANES_STATE_DIR is it, or
// unset): their first pane, as a rebuilt record needs it. A server that
// does not answer has none.
func (s *Service) liveSessions(ctx context.Context, socket, stateDir string) []store.LiveSession {
	tc := s.Tmux(socket)
	format := "#{" + strings.Join(startFields, "}\x1f#{") + "}"
	out, err := tc.Run(ctx, "list-panes", "-a", "-F", format)
	if err != nil {
		return nil
	}
	var found []store.LiveSession
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, "\x1f")
		if len(f) != len(startFields) || !state.ValidID(f[0]) || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		if _, foreign := ForeignStateDir(ctx, tc, f[2], stateDir); foreign {
			continue
		}
		launch, _, _ := tc.SessionEnv(ctx, f[2], agent.EnvLaunch)
		ls := store.LiveSession{ID: f[0], Name: strings.TrimPrefix(f[1], "lanes-"), Socket: socket,
			TmuxSession: f[1], SessionID: f[2], PaneID: f[3], Dir: f[5], CommandText: f[7],
			Launch: launch}
		if ls.Dir == "" {
			ls.Dir = f[8] // a dead pane has no current path; its session's start dir is the one lanes gave
		}
		if ls.Dir != "" {
			ls.Branch = git.Branch(ls.Dir)
		}
		ls.PID, _ = strconv.Atoi(f[4])
		if secs, err := strconv.ParseInt(f[6], 10, 64); err == nil {
			ls.Created = time.Unix(secs, 0).UTC()
		}
		if !state.ValidName(ls.Name) {
			ls.Name = "" // not one lanes made: named by its id
		}
		words, ok := tmux.SplitCommand(ls.CommandText)
		ls.Agent = agent.InjectedFor(stateDir, ls.ID)
		if ls.Agent == "" && ok {
			ls.Agent = state.AgentCustom
			if a, known := agent.ByBinary(words[0]); known {
				ls.Agent = a
			}
		}
		if ok {
			ls.Command, _ = agent.UserCommand(ls.Agent, stateDir, ls.ID, words)
		}
		found = append(found, ls)
	}
	return found
}

// ForeignStateDir is the state dir a tmux session was started for (its
// LANES_STATE_DIR), and whether that is another than ours: such a session
// is another lanes' to watch, neither ours nor an orphan.
func ForeignStateDir(ctx context.Context, tc *tmux.Client, sessionID, ours string) (string, bool) {
	dir, set, _ := tc.SessionEnv(ctx, sessionID, "LANES_STATE_DIR")
	return dir, set && ours != "" && filepath.Clean(dir) != filepath.Clean(ours)
}
