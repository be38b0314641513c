package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// drillStoreLinks: lanes.db replaced by a link to an empty file is refused
// (bbolt used to make a new store in the file it pointed to), and a
// snapshot replaced by a link is not restamped through it by an unchanged
// cycle.
func drillStoreLinks(w *world.World) (string, error) {
	if err := w.NewSleeper("s"); err != nil {
		return "", err
	}
	if r := w.Lanes("", "ls"); r.Code != 0 { // a cycle, so the next one changes nothing
		return "", fmt.Errorf("lanes ls: %s", r.Stderr)
	}
	victim := filepath.Join(w.Root, "victim")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o600); err != nil {
		return "", err
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(victim, old, old); err != nil {
		return "", err
	}
	snap := filepath.Join(w.State, "snapshot")
	_ = os.Remove(snap)
	if err := os.Symlink(victim, snap); err != nil {
		return "", err
	}
	ls := w.Lanes("", "ls")
	fi, err := os.Stat(victim)
	if err != nil {
		return "", err
	}
	sfi, _ := os.Lstat(snap)
	evidence := fmt.Sprintf("snapshot → victim, unchanged cycle (ls exit %d): victim mtime %s (was %s), snapshot now a regular file %v",
		ls.Code, fi.ModTime().UTC().Format(time.DateOnly), old.Format(time.DateOnly), sfi != nil && sfi.Mode().IsRegular())
	if !fi.ModTime().Equal(old) {
		return evidence, fmt.Errorf("the cycle restamped the snapshot link's target")
	}

	db := filepath.Join(w.State, "lanes.db")
	empty := filepath.Join(w.Root, "empty.db")
	if err := os.Rename(db, db+".aside"); err != nil {
		return evidence, err
	}
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		return evidence, err
	}
	if err := os.Symlink(empty, db); err != nil {
		return evidence, err
	}
	ls = w.Lanes("", "ls")
	efi, err := os.Stat(empty)
	if err != nil {
		return evidence, err
	}
	evidence += fmt.Sprintf("\nlanes.db → empty file: ls exit %d: %s; the empty file now %d bytes", ls.Code, firstLine(ls.Stderr), efi.Size())
	switch {
	case efi.Size() != 0:
		return evidence, fmt.Errorf("lanes made a new store in the file lanes.db links to")
	case ls.Code == 0 || !strings.Contains(ls.Stderr, "is a symlink"):
		return evidence, fmt.Errorf("a symlinked lanes.db was not refused with what to do")
	}
	return evidence, nil
}
