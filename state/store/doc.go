// Package store is state's I/O: the bbolt store (its schema, repair,
// damage, snapshot and rebuild), the hook spool (appended by `lanes hook`,
// ingested by a cycle), the collector cycle that applies one tmux read and
// the witness's captures to the records and takes in what the git and gh
// readers (state/git, state/gh) read beside it.
//
// What a fact means, how an event moves an activity and how a status is
// derived are package state's; this package reads and writes them. Pane
// observations reach it through the PaneSource interface, so it never
// imports tmux, theme or any UI package.
package store
