package theme

import "strings"

// Tmux renders text for a tmux format string (status-left/right) in role r's
// colour: "#[fg=#RRGGBB]text#[default]". A '#' in text is doubled so tmux
// shows it instead of reading it as a format.
func Tmux(r Role, isDark bool, text string) string {
	return "#[fg=" + Hex(r, isDark) + "]" + EscapeTmux(text) + "#[default]"
}

// EscapeTmux doubles every '#' in s, for text placed in a tmux format string
// without colour (NO_COLOR, plain segments).
func EscapeTmux(s string) string {
	return strings.ReplaceAll(s, "#", "##")
}
