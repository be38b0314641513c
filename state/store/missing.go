package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrMissing: lanes.db is gone from a state dir whose other files show a
// store was there. It is ErrDamaged as well: nothing reads or ingests, and
// `lanes doctor --repair` rebuilds the records from those files, as for an
// empty file. Starting an empty store instead would leave every running
// session an orphan (docs/design.md §7).
var ErrMissing = errors.New("store missing")

// traceNames are what lanes leaves in a state dir once it has a store:
// the hook's name and pane indexes, hook dirs, the snapshot and the last
// cycle's stamp. Neither hook-errors.log nor spool files are: hooks write
// them before any store exists (an agent lanes did not start, whose
// installed hooks report it, §13).
var traceNames = []string{"names", "panes", "hooks", snapshotName, "last-cycle"}

// traces lists the traces of a store that s.Dir holds; none for a fresh
// state dir.
func (s *Store) traces() []string {
	var found []string
	for _, name := range traceNames {
		fi, err := os.Lstat(filepath.Join(s.Dir, name))
		switch {
		case err != nil:
		case !fi.IsDir():
			found = append(found, name)
		default: // the dirs count when they hold anything
			if entries, _ := os.ReadDir(filepath.Join(s.Dir, name)); len(entries) > 0 {
				found = append(found, name+"/")
			}
		}
	}
	return found
}

// missing is the error for a lanes.db gone from a state dir holding found.
func (s *Store) missing(found []string) error {
	return &damageError{path: s.Path(), missing: true,
		what: "the file is gone, but lanes' other files are here (" + strings.Join(found, ", ") + "), so it existed"}
}
