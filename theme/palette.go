package theme

import (
	"image/color"

	"github.com/lucasb-eyer/go-colorful"
)

// Role is the semantic colour role of a state: what kind of attention it asks
// for, independent of the theme it is drawn in.
type Role int

// The roles, one per row of the docs/design.md §9 palette.
const (
	RoleWorking    Role = iota // live work; the only role that animates
	RoleNeeds                  // needs you, waiting, blocked, changes requested
	RoleReview                 // a PR waits on someone else
	RoleReady                  // approved or mergeable
	RoleMerged                 // merged: accent colour on the merged surface
	RoleIdle                   // quiet, nothing to do
	RoleTerminated             // a neutral end; never the danger colour
	RoleDanger                 // actionable failure: exited, CI failed
	RoleUnknown                // unknown state or no signal from the agent
)

// Roles lists every role, in palette order.
var Roles = []Role{
	RoleWorking, RoleNeeds, RoleReview, RoleReady, RoleMerged,
	RoleIdle, RoleTerminated, RoleDanger, RoleUnknown,
}

var roleNames = [...]string{
	RoleWorking:    "working",
	RoleNeeds:      "needs",
	RoleReview:     "review",
	RoleReady:      "ready",
	RoleMerged:     "merged",
	RoleIdle:       "idle",
	RoleTerminated: "terminated",
	RoleDanger:     "danger",
	RoleUnknown:    "unknown",
}

// String is the role's name, for test output and debugging.
func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return "Role(?)"
	}
	return roleNames[r]
}

// Palette holds one theme's colours as "#RRGGBB" strings. The role tokens are
// docs/design.md §9 verbatim; the chrome tokens (Text, Muted, Border, Selected) are
// lanes' own neutrals; Background is the reference terminal background the
// contrast checks measure against — lanes never paints it.
type Palette struct {
	Working       string
	Needs         string
	Review        string
	Ready         string
	MergedSurface string // background of a merged badge
	Merged        string // merged accent: dots, text, and text on MergedSurface
	Idle          string
	Terminated    string
	Danger        string
	Unknown       string

	Text       string // primary text, e.g. a card's name
	Muted      string // secondary text: ages, branches, help
	Border     string // an unselected card's border
	Selected   string // the selected card's border
	Background string // reference background for contrast checks
}

// Dark is the palette for dark terminal backgrounds. Its reference background
// #111317 is a typical near-black terminal (darker than One Dark or Tokyo
// Night, lighter than pure black); lighter dark themes such as Nord's #2E3440
// bring the terminated grey below 3:1.
var Dark = Palette{
	Working:       "#36C2B4",
	Needs:         "#F2B84B",
	Review:        "#5B8DEF",
	Ready:         "#75C98D",
	MergedSurface: "#173624",
	Merged:        "#4BAE72",
	Idle:          "#8E96A3",
	Terminated:    "#6F7680",
	Danger:        "#EE6A6A",
	Unknown:       "#A78BFA",

	Text:       "#E6E8EB",
	Muted:      "#9AA0A9",
	Border:     "#3D434C",
	Selected:   "#E6E8EB",
	Background: "#111317",
}

// Light is the palette for light terminal backgrounds. Its reference
// background is white, the default of most light terminal profiles; on
// off-white backgrounds such as #F5F5F5 the working teal drops to about 4.5:1,
// still above the 3:1 an indicator needs.
var Light = Palette{
	Working:       "#087F75",
	Needs:         "#946200",
	Review:        "#255FC4",
	Ready:         "#237A3D",
	MergedSurface: "#D9F2E1",
	Merged:        "#176B37",
	Idle:          "#69717D",
	Terminated:    "#626975",
	Danger:        "#B83232",
	Unknown:       "#6D46C2",

	Text:       "#1F2328",
	Muted:      "#5F6670",
	Border:     "#C5CAD1",
	Selected:   "#1F2328",
	Background: "#FFFFFF",
}

// For returns the palette for a dark or light background.
func For(isDark bool) Palette {
	if isDark {
		return Dark
	}
	return Light
}

// Hex is the "#RRGGBB" colour of role r; for RoleMerged it is the accent, not
// the surface. An unknown role gets the unknown colour.
func (p Palette) Hex(r Role) string {
	switch r {
	case RoleWorking:
		return p.Working
	case RoleNeeds:
		return p.Needs
	case RoleReview:
		return p.Review
	case RoleReady:
		return p.Ready
	case RoleMerged:
		return p.Merged
	case RoleIdle:
		return p.Idle
	case RoleTerminated:
		return p.Terminated
	case RoleDanger:
		return p.Danger
	}
	return p.Unknown
}

// Color is role r's colour, as Palette.Hex.
func (p Palette) Color(r Role) color.Color {
	return hexColor(p.Hex(r))
}

// hexColor is the colour of a "#RRGGBB" token (black for anything else,
// which Palette.Check reports).
func hexColor(hex string) color.Color {
	c, err := colorful.Hex(hex)
	if err != nil {
		return color.Black
	}
	return c
}

// Surface is the background a badge of role r sits on: the merged surface for
// RoleMerged, the role colour itself for every other role.
func (p Palette) Surface(r Role) string {
	if r == RoleMerged {
		return p.MergedSurface
	}
	return p.Hex(r)
}

// Hex is role r's "#RRGGBB" colour in the dark or light palette.
func Hex(r Role, isDark bool) string {
	return For(isDark).Hex(r)
}

// Color is role r's colour in the dark or light palette.
func Color(r Role, isDark bool) color.Color {
	return For(isDark).Color(r)
}
