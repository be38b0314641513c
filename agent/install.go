package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tailscale/hujson"

	"lanes/internal/fsafe"
	"lanes/state"
)

// InstallPath is the file Install writes for agent a: the user's config
// under home, or the project's under projectDir when it is not empty
// (each Driver's userConfig and projectConfig).
//
//	claude    ~/.claude/settings.json            DIR/.claude/settings.json
//	gemini    ~/.gemini/settings.json            DIR/.gemini/settings.json
//	codex     ~/.codex/hooks.json                DIR/.codex/hooks.json
//	opencode  ~/.config/opencode/plugins/lanes.js DIR/.opencode/plugins/lanes.js
func InstallPath(a state.Agent, home, projectDir string) (string, error) {
	d, err := driverOrNoHooks(a)
	if err != nil {
		return "", err
	}
	if projectDir == "" && home == "" {
		return "", errors.New("no home directory")
	}
	return d.configPath(home, projectDir), nil
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
	d, err := driverOrNoHooks(a)
	if err != nil {
		return nil, nil, err
	}
	if before, err = t.ReadFile(); err != nil {
		return nil, nil, err
	}
	if d.plugin != nil {
		if before != nil && !isLanesPlugin(before) {
			return nil, nil, fmt.Errorf("%s: %w", t.Path, ErrNotOurs)
		}
		return before, d.plugin(lanesBin, true), nil
	}
	if after, err = mergeFile(before, string(a), d.hooks, d.handler(lanesBin, true)); err != nil {
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
	d, ok := DriverOf(a)
	if !ok {
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
	if d.plugin != nil {
		return isLanesPlugin(b), nil
	}
	root, err := parseObject(b)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return hasAllHooks(root.Value.(*hujson.Object), string(a), d.hooks), nil
}
