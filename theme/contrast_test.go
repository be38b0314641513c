package theme

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestContrast(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"#000000", "#FFFFFF", 21},
		{"#FFFFFF", "#000000", 21},
		{"#777777", "#777777", 1},
		{"#767676", "#FFFFFF", 4.54}, // the classic lightest grey that passes AA on white
	}
	for _, tt := range tests {
		got := Contrast(hexColor(tt.a), hexColor(tt.b))
		if math.Abs(got-tt.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDeltaEScale(t *testing.T) {
	// Black to white is ΔE2000 100 on the usual scale.
	if got := DeltaE(hexColor("#000000"), hexColor("#FFFFFF")); math.Abs(got-100) > 0.5 {
		t.Errorf("DeltaE(black, white) = %.2f, want 100", got)
	}
	if got := DeltaE(hexColor("#36C2B4"), hexColor("#36C2B4")); got != 0 {
		t.Errorf("DeltaE(x, x) = %.2f, want 0", got)
	}
}

func TestShippedPalettesPass(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    Palette
	}{{"dark", Dark}, {"light", Light}} {
		for _, err := range tt.p.Check() {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// The palette's measured figures, so a review sees the margins, and a
// change of a colour shows here as a change of its figures.
func Example_paletteFigures() {
	for _, tt := range []struct {
		name string
		p    Palette
	}{{"dark", Dark}, {"light", Light}} {
		bg := hexColor(tt.p.Background)
		for _, r := range Roles {
			surface, text := tt.p.Badge(r)
			fmt.Printf("%s %-10s %s on %s %.2f:1  badge text %.2f:1\n", tt.name, r, tt.p.Hex(r), tt.p.Background,
				Contrast(tt.p.Color(r), bg), Contrast(text, surface))
		}
		fmt.Printf("%s ΔE2000 working/needs %.1f, terminated/danger %.1f\n", tt.name,
			DeltaE(tt.p.Color(RoleWorking), tt.p.Color(RoleNeeds)),
			DeltaE(tt.p.Color(RoleTerminated), tt.p.Color(RoleDanger)))
	}
	// Output:
	// dark working    #36C2B4 on #111317 8.44:1  badge text 8.44:1
	// dark needs      #F2B84B on #111317 10.39:1  badge text 10.39:1
	// dark review     #5B8DEF on #111317 5.76:1  badge text 5.76:1
	// dark ready      #75C98D on #111317 9.29:1  badge text 9.29:1
	// dark merged     #4BAE72 on #111317 6.73:1  badge text 4.78:1
	// dark idle       #8E96A3 on #111317 6.24:1  badge text 6.24:1
	// dark terminated #6F7680 on #111317 4.05:1  badge text 4.59:1
	// dark danger     #EE6A6A on #111317 6.11:1  badge text 6.11:1
	// dark unknown    #A78BFA on #111317 6.83:1  badge text 6.83:1
	// dark ΔE2000 working/needs 40.3, terminated/danger 31.9
	// light working    #087F75 on #FFFFFF 4.88:1  badge text 4.88:1
	// light needs      #946200 on #FFFFFF 5.24:1  badge text 5.24:1
	// light review     #255FC4 on #FFFFFF 5.98:1  badge text 5.98:1
	// light ready      #237A3D on #FFFFFF 5.35:1  badge text 5.35:1
	// light merged     #176B37 on #FFFFFF 6.57:1  badge text 5.55:1
	// light idle       #69717D on #FFFFFF 4.93:1  badge text 4.93:1
	// light terminated #626975 on #FFFFFF 5.53:1  badge text 5.53:1
	// light danger     #B83232 on #FFFFFF 5.93:1  badge text 5.93:1
	// light unknown    #6D46C2 on #FFFFFF 6.35:1  badge text 6.35:1
	// light ΔE2000 working/needs 38.1, terminated/danger 31.1
}

// TestCheckCatchesBrokenPalettes proves the checks bite: each palette below
// breaks one rule and Check must say which.
func TestCheckCatchesBrokenPalettes(t *testing.T) {
	tests := []struct {
		name   string
		base   Palette
		mutate func(*Palette)
		want   string
	}{
		{"needs equals working", Dark, func(p *Palette) { p.Needs = p.Working }, "ΔE2000"},
		{"needs near working", Light, func(p *Palette) { p.Needs = "#0A8A70" }, "working"},
		{"old orange working", Dark, func(p *Palette) { p.Working, p.Needs = "#F59F4C", "#E8C14A" }, "ΔE2000"},
		{"terminated is red", Dark, func(p *Palette) { p.Terminated = p.Danger }, "terminated"},
		{"terminated reddish", Light, func(p *Palette) { p.Terminated = "#A83A3A" }, "danger"},
		{"review lost on dark", Dark, func(p *Palette) { p.Review = "#1B2A4A" }, "review #1B2A4A on background"},
		{"ready lost on light", Light, func(p *Palette) { p.Ready = "#BFE8C9" }, "ready #BFE8C9 on background"},
		{"merged accent unreadable on surface", Dark, func(p *Palette) { p.Merged = "#2A6B45" }, "merged badge"},
		{"muted text too faint", Light, func(p *Palette) { p.Muted = "#B0B0B0" }, "muted"},
		{"selection invisible", Dark, func(p *Palette) { p.Selected = "#22252B" }, "selected border"},
		{"not a hex colour", Dark, func(p *Palette) { p.Idle = "grey" }, "not a #RRGGBB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.base
			tt.mutate(&p)
			errs := p.Check()
			if len(errs) == 0 {
				t.Fatalf("Check passed a broken palette")
			}
			var msgs []string
			for _, err := range errs {
				msgs = append(msgs, err.Error())
			}
			if all := strings.Join(msgs, "\n"); !strings.Contains(all, tt.want) {
				t.Errorf("errors do not mention %q:\n%s", tt.want, all)
			}
		})
	}
}

func TestInkPicksReadableText(t *testing.T) {
	for _, p := range []Palette{Dark, Light} {
		for _, r := range Roles {
			bg, fg := p.Badge(r)
			if got := Contrast(fg, bg); got < MinTextContrast {
				t.Errorf("%s badge on %s: %.2f:1", r, p.Surface(r), got)
			}
		}
	}
}
