package cli

// status-line --all-hosts runs under tmux's status-interval (2 s is
// usual): each host's answer is kept a few seconds, so the bar does not
// log in to every host every time it is drawn.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"lanes/internal/fsafe"
	"lanes/internal/listing"
	"lanes/internal/remote"
)

// hostCacheFor is how long a host's answer (or its failure) is reused:
// a host is asked at most once in it.
const hostCacheFor = 10 * time.Second

// hostAnswer is what one host's `lanes ls --json` said, as cached.
type hostAnswer struct {
	// Dest: the answer is for this destination (a changed hosts file
	// asks again).
	Dest     string            `json:"dest"`
	At       time.Time         `json:"at"`
	Sessions []listing.Session `json:"sessions"`
	Err      string            `json:"err,omitempty"`
}

// hostCachePath is h's cache file under the state dir ("" without one).
// Host names are letters, digits, '.', '_' and '-', never starting with
// a dot: a file name as they are.
func (a *app) hostCachePath(h remote.Host) string {
	dir, err := a.stateDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "hosts", h.Name+".json")
}

// cachedAnswer is h's answer if one younger than hostCacheFor is kept.
func (a *app) cachedAnswer(h remote.Host) (hostAnswer, bool) {
	var c hostAnswer
	p := a.hostCachePath(h)
	if p == "" {
		return c, false
	}
	b, err := os.ReadFile(p)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Dest != h.Dest {
		return c, false
	}
	age := a.now().Sub(c.At)
	return c, age >= 0 && age < hostCacheFor
}

// saveAnswer keeps h's answer, written whole (a status line drawn at the
// same moment reads the old answer or the new, never a part); a cache
// that cannot be written costs only a login more.
func (a *app) saveAnswer(h remote.Host, sessions []listing.Session, err error) {
	p := a.hostCachePath(h)
	if p == "" {
		return
	}
	c := hostAnswer{Dest: h.Dest, At: a.now(), Sessions: sessions}
	if err != nil {
		c.Err = err.Error()
	}
	b, jerr := json.Marshal(c)
	if jerr != nil || os.MkdirAll(filepath.Dir(p), 0o700) != nil {
		return
	}
	_ = fsafe.WriteFile(p, b, 0o600)
}

// answerErr is a cached failure as an error again.
func (c hostAnswer) answerErr() error {
	if c.Err == "" {
		return nil
	}
	return errors.New(c.Err)
}
