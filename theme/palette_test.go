package theme

import "testing"

// TestPaletteTokens pins the role tokens to docs/design.md §9; this table is the spec.
func TestPaletteTokens(t *testing.T) {
	tests := []struct {
		token       string
		dark, light string
		gotD, gotL  string
	}{
		{"working", "#36C2B4", "#087F75", Dark.Working, Light.Working},
		{"needs", "#F2B84B", "#946200", Dark.Needs, Light.Needs},
		{"review", "#5B8DEF", "#255FC4", Dark.Review, Light.Review},
		{"ready", "#75C98D", "#237A3D", Dark.Ready, Light.Ready},
		{"merged surface", "#173624", "#D9F2E1", Dark.MergedSurface, Light.MergedSurface},
		{"merged accent", "#4BAE72", "#176B37", Dark.Merged, Light.Merged},
		{"idle", "#8E96A3", "#69717D", Dark.Idle, Light.Idle},
		{"terminated", "#6F7680", "#626975", Dark.Terminated, Light.Terminated},
		{"danger", "#EE6A6A", "#B83232", Dark.Danger, Light.Danger},
		{"unknown", "#A78BFA", "#6D46C2", Dark.Unknown, Light.Unknown},
	}
	for _, tt := range tests {
		if tt.gotD != tt.dark {
			t.Errorf("dark %s = %s, want %s", tt.token, tt.gotD, tt.dark)
		}
		if tt.gotL != tt.light {
			t.Errorf("light %s = %s, want %s", tt.token, tt.gotL, tt.light)
		}
	}
}

func TestRoleLookups(t *testing.T) {
	tests := []struct {
		role        Role
		dark, light string
	}{
		{RoleWorking, "#36C2B4", "#087F75"},
		{RoleNeeds, "#F2B84B", "#946200"},
		{RoleReview, "#5B8DEF", "#255FC4"},
		{RoleReady, "#75C98D", "#237A3D"},
		{RoleMerged, "#4BAE72", "#176B37"},
		{RoleIdle, "#8E96A3", "#69717D"},
		{RoleTerminated, "#6F7680", "#626975"},
		{RoleDanger, "#EE6A6A", "#B83232"},
		{RoleUnknown, "#A78BFA", "#6D46C2"},
	}
	if len(tests) != len(Roles) {
		t.Fatalf("table has %d roles, Roles has %d", len(tests), len(Roles))
	}
	for _, tt := range tests {
		if got := Hex(tt.role, true); got != tt.dark {
			t.Errorf("Hex(%s, dark) = %s, want %s", tt.role, got, tt.dark)
		}
		if got := Hex(tt.role, false); got != tt.light {
			t.Errorf("Hex(%s, light) = %s, want %s", tt.role, got, tt.light)
		}
		if Contrast(Color(tt.role, true), For(true).Color(tt.role)) != 1 {
			t.Errorf("Color(%s, dark) differs from the dark palette", tt.role)
		}
	}
	if Dark.Surface(RoleMerged) != "#173624" || Light.Surface(RoleMerged) != "#D9F2E1" {
		t.Errorf("merged surface = %s / %s", Dark.Surface(RoleMerged), Light.Surface(RoleMerged))
	}
	if got := Dark.Surface(RoleReview); got != Dark.Review {
		t.Errorf("review surface = %s, want the role colour %s", got, Dark.Review)
	}
	if For(true) != Dark || For(false) != Light {
		t.Error("For does not pick Dark for dark and Light for light")
	}
}
