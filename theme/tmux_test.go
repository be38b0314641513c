package theme

import "testing"

func TestTmux(t *testing.T) {
	tests := []struct {
		role   Role
		isDark bool
		text   string
		want   string
	}{
		{RoleWorking, true, "● 3", "#[fg=#36C2B4]● 3#[default]"},
		{RoleWorking, false, "● 3", "#[fg=#087F75]● 3#[default]"},
		{RoleNeeds, true, "◆ 1", "#[fg=#F2B84B]◆ 1#[default]"},
		{RoleReview, false, "PR #12", "#[fg=#255FC4]PR ##12#[default]"},
		{RoleDanger, true, "#[fg=red]", "#[fg=#EE6A6A]##[fg=red]#[default]"},
		{RoleIdle, true, "", "#[fg=#8E96A3]#[default]"},
	}
	for _, tt := range tests {
		if got := Tmux(tt.role, tt.isDark, tt.text); got != tt.want {
			t.Errorf("Tmux(%s, %v, %q) = %q, want %q", tt.role, tt.isDark, tt.text, got, tt.want)
		}
	}
	if got := EscapeTmux("a#b##c"); got != "a##b####c" {
		t.Errorf("EscapeTmux = %q", got)
	}
}
