// Package style owns the board's Lip Gloss styles, built once from the
// theme's palette for a dark or light background (or none, for NO_COLOR).
// It is apart from theme so that the lanes command line, which prints the
// same palette into tmux's status line, links no terminal UI.
package style
