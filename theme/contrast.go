package theme

import (
	"fmt"
	"image/color"
	"math"

	"github.com/lucasb-eyer/go-colorful"
)

// The thresholds a palette must meet. WCAG 2.x asks 4.5:1 for text and 3:1
// for graphical indicators; MinDeltaE keeps working and needs-you apart at a
// glance in a one-cell dot (the hues the old orange/amber scheme confused).
const (
	MinTextContrast      = 4.5
	MinIndicatorContrast = 3.0
	MinDeltaE            = 30.0
)

// The two inks badge text is drawn in: the dark reference background and
// white. Whichever contrasts more with the badge wins.
const (
	inkDark  = "#111317"
	inkLight = "#FFFFFF"
)

// isHex reports whether s is a #RRGGBB colour. (Not a regexp: this package
// is linked into every lanes command, hooks included, and a regexp compiled
// at init costs start-up time.)
func isHex(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, c := range s[1:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// Contrast is the WCAG 2.x contrast ratio of a and b, from 1 (same
// luminance) to 21 (black on white). Order does not matter.
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is WCAG relative luminance: linearised sRGB weighted by the eye's
// sensitivity to each primary.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xFFFF
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// DeltaE is the CIEDE2000 colour difference of a and b on the usual 0–100
// scale (about 2.3 is just noticeable). go-colorful returns it divided by 100.
func DeltaE(a, b color.Color) float64 {
	ca, _ := colorful.MakeColor(a)
	cb, _ := colorful.MakeColor(b)
	return ca.DistanceCIEDE2000(cb) * 100
}

// ink is the text colour for a badge whose background is bg: the dark or the
// light ink, whichever contrasts more.
func ink(bg color.Color) color.Color {
	dark, light := hexColor(inkDark), hexColor(inkLight)
	if Contrast(dark, bg) >= Contrast(light, bg) {
		return dark
	}
	return light
}

// Check reports every way p fails the rules its colours exist to keep: each
// token is a #RRGGBB colour; each role colour stands out from the reference
// background (3:1) and badge text on it is readable (4.5:1); working and
// needs-you differ by at least MinDeltaE; terminated is never the danger
// colour; text, muted text and the selection border are readable. Roles may
// share a colour only through a bug, so identical role colours are reported.
func (p Palette) Check() []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	tokens := map[string]string{
		"MergedSurface": p.MergedSurface, "Text": p.Text, "Muted": p.Muted,
		"Border": p.Border, "Selected": p.Selected, "Background": p.Background,
	}
	for _, r := range Roles {
		tokens[r.String()] = p.Hex(r)
	}
	for name, hex := range tokens {
		if !isHex(hex) {
			fail("%s: %q is not a #RRGGBB colour", name, hex)
		}
	}
	if len(errs) > 0 {
		return errs
	}

	bg := hexColor(p.Background)
	for _, r := range Roles {
		c := p.Color(r)
		if got := Contrast(c, bg); got < MinIndicatorContrast {
			fail("%s %s on background %s: contrast %.2f < %.1f", r, p.Hex(r), p.Background, got, MinIndicatorContrast)
		}
		surface, text := p.Badge(r)
		if got := Contrast(text, surface); got < MinTextContrast {
			fail("%s badge: text on %s: contrast %.2f < %.1f", r, p.Surface(r), got, MinTextContrast)
		}
	}
	for i, a := range Roles {
		for _, b := range Roles[i+1:] {
			if p.Hex(a) == p.Hex(b) {
				fail("%s and %s share colour %s", a, b, p.Hex(a))
			}
		}
	}
	if d := DeltaE(p.Color(RoleWorking), p.Color(RoleNeeds)); d < MinDeltaE {
		fail("working %s vs needs %s: ΔE2000 %.1f < %.0f", p.Working, p.Needs, d, MinDeltaE)
	}
	if d := DeltaE(p.Color(RoleTerminated), p.Color(RoleDanger)); d < MinDeltaE {
		fail("terminated %s too close to danger %s: ΔE2000 %.1f < %.0f", p.Terminated, p.Danger, d, MinDeltaE)
	}
	for _, t := range []struct {
		name, hex string
		min       float64
	}{
		{"text", p.Text, MinTextContrast},
		{"muted", p.Muted, MinTextContrast},
		{"selected border", p.Selected, MinIndicatorContrast},
	} {
		if got := Contrast(hexColor(t.hex), bg); got < t.min {
			fail("%s %s on background %s: contrast %.2f < %.1f", t.name, t.hex, p.Background, got, t.min)
		}
	}
	return errs
}

// Badge is the background and text colour of a badge of role r: the merged
// surface with the merged accent, or the role colour with an ink.
func (p Palette) Badge(r Role) (bg, fg color.Color) {
	if r == RoleMerged {
		return hexColor(p.MergedSurface), p.Color(RoleMerged)
	}
	bg = p.Color(r)
	return bg, ink(bg)
}
