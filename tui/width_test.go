package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWidthAgreesWithAnsi(t *testing.T) {
	for _, s := range []string{
		"", "api", "claude · fix-login #12", "agent exit…", "↯ unreachable", "■ exited (SIGKILL)",
		"ünïcödé-naïve", "日本語", "e\u0301", "🚀 ship", "完了しました 🎉 テスト", "“Done…”", "tab\there", "● ◉ ○ ◆ ▲ ✗ ‖ ★ □ ⊘ ↺ ◌ ◐ ◎ ✓ ⇡ ?",
	} {
		if got, want := width(s), ansi.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, ansi says %d", s, got, want)
		}
	}
}
