package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/internal/session"
	"lanes/state/fsafe"
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
	if filepath.Base(self) == boardName {
		if lean := filepath.Join(filepath.Dir(self), "lanes"); session.IsExecutable(lean) {
			return lean, nil
		}
	}
	if !strings.Contains(self, string(filepath.Separator)+"go-build") {
		return self, nil
	}
	body, err := os.ReadFile(self)
	if err != nil {
		return "", err
	}
	stable := filepath.Join(stateDir, "bin", "lanes")
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
