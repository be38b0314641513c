package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/agent"
	"lanes/internal/fsafe"
	"lanes/internal/session"
	"lanes/state"
)

// hookBinary is the absolute path hooks run lanes by: the lanes binary
// next to lanes-board when the board asks, since hooks are on the agents'
// critical path and lanes starts faster. A binary from `go run` lives in a
// build cache directory that is deleted when it exits, while the sessions
// it starts live on, so such a binary is copied to $STATE/bin first.
func hookBinary(stateDir string) (string, error) {
	self, err := executable()
	if err != nil {
		return "", fmt.Errorf("finding the lanes binary for hooks: %w", err)
	}
	return hookBinaryFor(self, stateDir)
}

func hookBinaryFor(self, stateDir string) (string, error) {
	stable := hookBinaryPath(self, stateDir)
	if stable != filepath.Join(stateDir, "bin", "lanes") || !isGoRun(self) {
		return stable, nil
	}
	body, err := os.ReadFile(self)
	if err != nil {
		return "", err
	}
	if old, err := os.ReadFile(stable); err == nil && bytes.Equal(old, body) {
		return stable, nil
	}
	if err := os.MkdirAll(filepath.Dir(stable), 0o700); err != nil {
		return "", err
	}
	if err := fsafe.WriteFile(stable, body, 0o700); err != nil {
		return "", fmt.Errorf("copying lanes for hooks: %w", err)
	}
	return stable, nil
}

// hookBinaryPath is the path hookBinaryFor gives, without copying anything:
// what `lanes doctor` expects installed hooks to run.
func hookBinaryPath(self, stateDir string) string {
	if filepath.Base(self) == boardName {
		if lean := filepath.Join(filepath.Dir(self), "lanes"); session.IsExecutable(lean) {
			return lean
		}
	}
	if !isGoRun(self) {
		return self
	}
	return filepath.Join(stateDir, "bin", "lanes")
}

// isGoRun: the binary lives in a build cache directory `go run` deletes.
func isGoRun(self string) bool {
	return strings.Contains(self, string(filepath.Separator)+"go-build")
}

// doctorHookBinaries reports hooks installed in the user's config of ag
// that run a lanes binary that is gone (a moved checkout, a deleted build)
// or is another lanes than this one; it reports whether it found any.
func doctorHookBinaries(ag state.Agent, home, stateDir string, add addFunc) bool {
	path, err := agent.InstallPath(ag, home, "")
	if err != nil {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false // none installed; an unreadable file is the next check's
	}
	bins, _ := agent.InstalledBinaries(ag, b)
	self, _ := executable()
	want := hookBinaryPath(self, stateDir)
	wantFi, wantErr := os.Stat(want)
	fix := "lanes hooks install " + string(ag)
	found := false
	for _, bin := range uniq(bins) {
		fi, err := os.Stat(bin)
		switch {
		case err != nil || fi.IsDir():
			add(false, fix, "%s: its installed lanes hooks run %s, which no longer exists", ag, bin)
		case wantErr == nil && !os.SameFile(fi, wantFi):
			add(false, fix, "%s: its installed lanes hooks run %s, not this lanes (%s)", ag, bin, want)
		default:
			continue
		}
		found = true
	}
	return found
}
