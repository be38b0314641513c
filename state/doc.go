// Package state is the pure core of what lanes knows about sessions: the
// facts with their provenance and their vocabulary, the activity state
// machine applied when events are written, the one status derivation
// (Derive) applied when they are read, the record's codec, each agent's
// reading (its hook events and screen markers, one file each), the
// witness's looks and when they are due, and the pane exit rules.
//
// It touches no file, process or database: the store, the spool, the
// collector's cycle and the git and gh readers are state/store's. It never
// imports tmux, theme or any UI package.
package state
