package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tailscale/hujson"

	"lanes/state"
	"lanes/state/fsafe"
)

// InstallPath is the file Install writes for agent a: the user's config
// under home, or the project's under projectDir when it is not empty.
//
//	claude    ~/.claude/settings.json            DIR/.claude/settings.json
//	gemini    ~/.gemini/settings.json            DIR/.gemini/settings.json
//	codex     ~/.codex/hooks.json                DIR/.codex/hooks.json
//	opencode  ~/.config/opencode/plugins/lanes.js DIR/.opencode/plugins/lanes.js
func InstallPath(a state.Agent, home, projectDir string) (string, error) {
	base, user := projectDir, projectDir == ""
	if user {
		if home == "" {
			return "", errors.New("no home directory")
		}
		base = home
	}
	switch a {
	case state.AgentClaude:
		return filepath.Join(base, ".claude", "settings.json"), nil
	case state.AgentGemini:
		return filepath.Join(base, ".gemini", "settings.json"), nil
	case state.AgentCodex:
		// Codex reads hooks.json next to each config layer; the JSON form
		// lets lanes merge without rewriting the user's config.toml.
		return filepath.Join(base, ".codex", "hooks.json"), nil
	case state.AgentOpenCode:
		if user {
			return filepath.Join(home, ".config", "opencode", "plugins", "lanes.js"), nil
		}
		return filepath.Join(projectDir, ".opencode", "plugins", "lanes.js"), nil
	case state.AgentShell, state.AgentCustom:
		return "", fmt.Errorf("%s: %w: nothing to install (use `lanes hook generic ACTIVITY` from your own scripts)", a, ErrNoHooks)
	}
	return "", fmt.Errorf("unknown agent %q", a)
}

// Install computes the agent's config file with lanes' hooks added: it
// returns the file, open for replacing (the caller writes the backup and
// the file through it, or prints the diff for --dry-run, and closes it),
// its current bytes (nil when it does not exist) and the bytes to write.
// When the config file is a symlink (a dotfile manager's) the file is its
// target, so the link stays a link; a link another user owns, or one to
// another user's file, or a directory another user owns, is refused (see
// fsafe.OpenTarget). Every other key and every other hook is kept in
// place; lanes' earlier hooks (any binary path) are replaced, so installing
// twice gives the same bytes. Installed hooks carry InstalledFlag and stand
// down in sessions whose hooks lanes injected.
func Install(a state.Agent, lanesBin, home, projectDir string) (t *fsafe.Target, before, after []byte, err error) {
	path, err := InstallPath(a, home, projectDir)
	if err != nil {
		return nil, nil, nil, err
	}
	if !filepath.IsAbs(lanesBin) {
		return nil, nil, nil, fmt.Errorf("lanes binary path %q is not absolute", lanesBin)
	}
	if t, err = fsafe.OpenTarget(path, os.Geteuid()); err != nil {
		return nil, nil, nil, err
	}
	if before, after, err = merge(a, lanesBin, t); err != nil {
		t.Close()
		return nil, nil, nil, err
	}
	return t, before, after, nil
}

func merge(a state.Agent, lanesBin string, t *fsafe.Target) (before, after []byte, err error) {
	if before, err = t.ReadFile(); err != nil {
		return nil, nil, err
	}
	switch a {
	case state.AgentOpenCode:
		if before != nil && !isLanesPlugin(before) {
			return nil, nil, fmt.Errorf("%s: %w", t.Path, ErrNotOurs)
		}
		return before, opencodePlugin(lanesBin, true), nil
	case state.AgentClaude:
		after, err = mergeFile(before, "claude", claudeHooks, claudeHandler(lanesBin, true))
	case state.AgentGemini:
		after, err = mergeFile(before, "gemini", geminiHooks, geminiHandler(lanesBin, true))
	case state.AgentCodex:
		after, err = mergeFile(before, "codex", codexHooks, codexHandler(lanesBin, true))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	return before, after, nil
}

func mergeFile(before []byte, agent string, specs []hookSpec, handler hookHandler) ([]byte, error) {
	after, err := patchHooks(before, agent, specs, handler)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(bytes.TrimSpace(after), bytes.TrimSpace(before)) {
		return before, nil // already installed: leave the bytes alone
	}
	return after, nil
}

// Installed reports whether lanes' hooks are installed in the user's config
// of agent a (under home) for every event lanes uses, for `lanes doctor`.
func Installed(a state.Agent, home string) (bool, error) {
	if a == state.AgentShell || a == state.AgentCustom {
		return false, nil
	}
	path, err := InstallPath(a, home, "")
	if err != nil {
		return false, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var specs []hookSpec
	switch a {
	case state.AgentOpenCode:
		return isLanesPlugin(b), nil
	case state.AgentClaude:
		specs = claudeHooks
	case state.AgentGemini:
		specs = geminiHooks
	case state.AgentCodex:
		specs = codexHooks
	}
	root, err := parseObject(b)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return hasAllHooks(root.Value.(*hujson.Object), string(a), specs), nil
}
