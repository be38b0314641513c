package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"lanes/agent"
	"lanes/state"
	"lanes/state/fsafe"
)

// Remove purges a terminated session's record, history, spool and
// indexes (`lanes rm`); an adopted one, live or not, is forgotten: its
// later hooks write nothing.
func (s *Service) Remove(_ context.Context, r *state.Record) error {
	if r.Live() && !r.Adopted {
		return fmt.Errorf("%s is live; `lanes kill %s` first", r.Name, r.Name)
	}
	st, err := s.Store()
	if err != nil {
		return err
	}
	if r.Adopted {
		// Forgotten for good: its later hooks write nothing (hook.go).
		path := ForgottenMark(st.Dir, r.ID)
		_ = os.MkdirAll(filepath.Dir(path), 0o700)
		if err := fsafe.WriteFile(path, nil, 0o600); err != nil {
			return fmt.Errorf("forgetting %s: %w", r.Name, err)
		}
	}
	if err := st.Update(func(tx *state.Tx) error { return tx.Delete(r.ID) }); err != nil {
		return err
	}
	spool, _ := filepath.Glob(filepath.Join(st.SpoolDir(), r.ID+"*.jsonl"))
	for _, f := range spool {
		_ = os.Remove(f)
	}
	_ = os.RemoveAll(agent.HookDir(st.Dir, r.ID))
	state.DropPaneIndex(st.Dir, r)
	if b, err := os.ReadFile(NameIndex(st.Dir, r.Name)); err == nil && strings.HasPrefix(string(b), r.ID) {
		_ = os.Remove(NameIndex(st.Dir, r.Name))
	}
	return nil
}
