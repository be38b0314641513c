// Package state owns what lanes knows about sessions: the stored facts with
// their provenance, the activity state machine applied when events are
// written, the one status derivation (Derive) applied when they are read, the
// bbolt store, the hook spool ingest and the collector cycle.
//
// It never imports tmux, theme or any UI package; pane observations reach it
// through the PaneSource interface.
package state
