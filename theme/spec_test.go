package theme

import (
	"testing"

	"charm.land/lipgloss/v2"

	"lanes/state"
)

// maxShort is the widest a short label may be: badges sit on narrow cards.
const maxShort = 11

func checkSpec(t *testing.T, what string, sp Spec) {
	t.Helper()
	if sp.Glyph == "" || sp.Short == "" || sp.Long == "" {
		t.Errorf("%s: empty glyph or label: %+v", what, sp)
	}
	if w := lipgloss.Width(sp.Glyph); w != 1 {
		t.Errorf("%s: glyph %q is %d cells wide, want 1", what, sp.Glyph, w)
	}
	if sp.Role < 0 || int(sp.Role) >= len(Roles) {
		t.Errorf("%s: role %d is not a role", what, sp.Role)
	}
}

func TestStatusSpecs(t *testing.T) {
	want := map[state.Status]Role{
		state.StatusWorking:          RoleWorking,
		state.StatusIdle:             RoleIdle,
		state.StatusNeedsInput:       RoleNeeds,
		state.StatusExited:           RoleDanger,
		state.StatusNoSignal:         RoleUnknown,
		state.StatusCIFailed:         RoleDanger,
		state.StatusConflicting:      RoleDanger,
		state.StatusChangesRequested: RoleNeeds,
		state.StatusDraft:            RoleReview,
		state.StatusReviewPending:    RoleReview,
		state.StatusPROpen:           RoleReview,
		state.StatusApproved:         RoleReady,
		state.StatusMergeable:        RoleReady,
		state.StatusMerged:           RoleMerged,
		state.StatusTerminated:       RoleTerminated,
		state.StatusUnknown:          RoleUnknown,
	}
	if len(want) != len(state.Statuses) || len(statusSpecs) != len(state.Statuses) {
		t.Fatalf("want %d, specs %d, state.Statuses %d", len(want), len(statusSpecs), len(state.Statuses))
	}
	for _, s := range state.Statuses {
		sp, ok := statusSpecs[s]
		if !ok {
			t.Errorf("status %s has no spec", s)
			continue
		}
		checkSpec(t, string(s), sp)
		if sp.Role != want[s] {
			t.Errorf("status %s: role %s, want %s", s, sp.Role, want[s])
		}
		if w := lipgloss.Width(sp.Short); w > maxShort {
			t.Errorf("status %s: short label %q is %d cells, want ≤ %d", s, sp.Short, w, maxShort)
		}
		if sp.Animates != (s == state.StatusWorking) {
			t.Errorf("status %s: Animates = %v; only working animates", s, sp.Animates)
		}
	}
	if StatusSpec("bogus") != statusSpecs[state.StatusUnknown] {
		t.Error("an unrecognised status is not shown as unknown")
	}
}

func TestActivitySpecs(t *testing.T) {
	want := map[state.Activity]Role{
		state.ActivityActive:       RoleWorking,
		state.ActivityIdle:         RoleIdle,
		state.ActivityWaitingInput: RoleNeeds,
		state.ActivityBlocked:      RoleNeeds,
		state.ActivityExited:       RoleDanger,
		state.ActivityUnknown:      RoleUnknown,
	}
	if len(want) != len(state.Activities) || len(activitySpecs) != len(state.Activities) {
		t.Fatalf("want %d, specs %d, state.Activities %d", len(want), len(activitySpecs), len(state.Activities))
	}
	for _, a := range state.Activities {
		sp := ActivitySpec(a)
		checkSpec(t, string(a), sp)
		if sp.Role != want[a] {
			t.Errorf("activity %s: role %s, want %s", a, sp.Role, want[a])
		}
		if sp.Animates != (a == state.ActivityActive) {
			t.Errorf("activity %s: Animates = %v; only active animates", a, sp.Animates)
		}
	}
	if ActivitySpec("bogus") != activitySpecs[state.ActivityUnknown] {
		t.Error("an unrecognised activity is not shown as unknown")
	}
}

func TestZoneSpecs(t *testing.T) {
	tests := []struct {
		zone state.Zone
		name string
		role Role
	}{
		{state.ZoneWorking, "Working", RoleWorking},
		{state.ZoneNeedsYou, "Needs you", RoleNeeds},
		{state.ZoneInReview, "In review", RoleReview},
		{state.ZoneReadyToMerge, "Ready to merge", RoleReady},
		{state.ZoneDone, "Done", RoleTerminated},
	}
	if len(tests) != len(state.Zones) {
		t.Fatalf("table has %d zones, state.Zones has %d", len(tests), len(state.Zones))
	}
	for _, tt := range tests {
		sp := ZoneSpec(tt.zone)
		checkSpec(t, string(tt.zone), sp)
		if sp.Short != tt.name || sp.Role != tt.role || sp.Animates {
			t.Errorf("zone %s = %+v, want name %q role %s, static", tt.zone, sp, tt.name, tt.role)
		}
	}
	if sp := ZoneSpec("elsewhere"); sp.Role != RoleUnknown || sp.Short != "elsewhere" {
		t.Errorf("unknown zone = %+v", sp)
	}
}

func TestMarkSpecs(t *testing.T) {
	tests := []struct {
		mark  state.Mark
		label string
		role  Role
	}{
		{state.MarkFailed, "Failed", RoleDanger},
		{state.MarkInterrupted, "Interrupted", RoleIdle},
		{state.MarkUnconfirmed, "unconfirmed", RoleUnknown},
		{state.MarkUnreachable, "unreachable", RoleUnknown},
		{state.MarkStarting, "starting", RoleIdle},
		{state.MarkBackground, "background", RoleWorking},
		{state.MarkRetrying, "retrying", RoleNeeds},
		{state.MarkMenu, "in a menu", RoleIdle},
		{state.MarkContextFull, "context full", RoleNeeds},
		{state.MarkLimitNear, "limit near", RoleNeeds},
	}
	if len(tests) != len(markSpecs) || len(tests) != len(state.Marks) {
		t.Fatalf("table has %d marks, markSpecs has %d, state.Marks %d", len(tests), len(markSpecs), len(state.Marks))
	}
	for _, tt := range tests {
		sp := MarkSpec(tt.mark)
		checkSpec(t, string(tt.mark), sp)
		if sp.Short != tt.label || sp.Role != tt.role || sp.Animates {
			t.Errorf("mark %s = %+v, want label %q role %s, static", tt.mark, sp, tt.label, tt.role)
		}
	}
}

// TestSharedColourDiffersByGlyphAndLabel: colour is never the only carrier,
// so any two statuses (or activities) differ in glyph and in label. Sharing a
// role is the case that matters; the check covers every pair.
func TestSharedColourDiffersByGlyphAndLabel(t *testing.T) {
	check := func(kind string, names []string, specs []Spec) {
		for i := range specs {
			for j := i + 1; j < len(specs); j++ {
				a, b := specs[i], specs[j]
				if a.Glyph == b.Glyph {
					t.Errorf("%s %s and %s share glyph %q", kind, names[i], names[j], a.Glyph)
				}
				if a.Short == b.Short || a.Long == b.Long {
					t.Errorf("%s %s and %s share a label", kind, names[i], names[j])
				}
			}
		}
	}
	var names []string
	var specs []Spec
	for _, s := range state.Statuses {
		names, specs = append(names, string(s)), append(specs, StatusSpec(s))
	}
	check("status", names, specs)
	names, specs = nil, nil
	for _, a := range state.Activities {
		names, specs = append(names, string(a)), append(specs, ActivitySpec(a))
	}
	check("activity", names, specs)
}

func TestTerminatedIsNeverDanger(t *testing.T) {
	if StatusSpec(state.StatusTerminated).Role == RoleDanger {
		t.Error("terminated uses the danger role")
	}
	for _, p := range []Palette{Dark, Light} {
		if p.Hex(StatusSpec(state.StatusTerminated).Role) == p.Danger {
			t.Errorf("terminated is drawn in the danger colour %s", p.Danger)
		}
	}
}

func TestWindowName(t *testing.T) {
	for m, want := range map[int64]string{300: "5-hour", 10080: "weekly", 1440: "daily", 4320: "3-day", 90: "90-minute", 0: "primary"} {
		if got := WindowName(state.Limit{Name: "primary", WindowMin: m}); got != want {
			t.Errorf("WindowName(%d min) = %q, want %q", m, got, want)
		}
	}
}
