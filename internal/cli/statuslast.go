package cli

// The status line's last good lines: what it prints, for a minute, when
// the store or tmux cannot give it a current one.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"lanes/internal/fsafe"
)

// lastGoodEntry is one cached line and when it was rendered.
type lastGoodEntry struct {
	Line string    `json:"line"`
	At   time.Time `json:"at"`
}

func (a *app) lastGoodPath() string {
	dir, err := a.stateDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, lastGoodFile)
}

func (a *app) readLastGood() map[string]lastGoodEntry {
	m := map[string]lastGoodEntry{}
	if p := a.lastGoodPath(); p != "" {
		b, _ := os.ReadFile(p)
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// lastGood is the line last rendered for key, if it is recent.
func (a *app) lastGood(key string) (string, bool) {
	e, ok := a.readLastGood()[key]
	if age := a.now().Sub(e.At); !ok || age < 0 || age > lastGoodMaxAge {
		return "", false
	}
	return e.Line, true
}

// saveLastGood caches line for key; an unchanged line is rewritten only when
// half its lifetime has passed. Concurrent status lines may lose one
// another's update, which costs at most a marker in place of a line.
func (a *app) saveLastGood(key, line string) {
	p := a.lastGoodPath()
	if p == "" {
		return
	}
	now := a.now()
	m := a.readLastGood()
	if e, ok := m[key]; ok && e.Line == line && now.Sub(e.At) >= 0 && now.Sub(e.At) < lastGoodMaxAge/2 {
		return
	}
	for k, e := range m {
		if now.Sub(e.At) > lastGoodMaxAge {
			delete(m, k)
		}
	}
	m[key] = lastGoodEntry{Line: line, At: now}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	_ = fsafe.WriteFile(p, b, 0o600)
}
