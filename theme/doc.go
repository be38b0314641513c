// Package theme owns how lanes looks: the semantic palette for dark and light
// terminals (docs/design.md §9), the role, glyph and label of every status,
// activity, zone and mark, the contrast checks that keep those colours
// readable, and the tmux-format colour strings of the status line. The Lip
// Gloss styles the board is drawn with are built from it in theme/style,
// apart, so that the command line links no terminal UI.
//
// It is the only place in lanes that names a colour. Every other package asks
// for a Role, a Spec or a style, so a palette change happens here or nowhere.
//
// Colour is never the only carrier of meaning: every state has its own glyph
// and text label, and styles built for NO_COLOR carry no colour at all.
package theme
