package state

import (
	"os"
	"path/filepath"
	"testing"
)

// Gemini CLI's composer is read under its rule, not from its history's
// prompts drawn the same way (testdata/real/gemini/composer, 0.61.0).
func TestGeminiInputHolds(t *testing.T) {
	for file, holds := range map[string]bool{"holds": true, "twolines": true, "taken": false, "shell": false} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "gemini", "composer", file+".screen"))
		if err != nil {
			t.Fatal(err)
		}
		if got := InputHolds(AgentGemini, Screen(b)); got != holds {
			t.Errorf("%s: input holds %v, want %v", file, got, holds)
		}
		if shell := InMenu(AgentGemini, Screen(b)); shell != (file == "shell") {
			t.Errorf("%s: in a menu %v, want %v (its shell mode)", file, shell, file == "shell")
		}
	}
	// Its history's last prompt, no composer under the rule: cannot tell.
	if InputHolds(AgentGemini, Screen(" > Run the command.\n✦ Done.\n────\n workspace")) {
		t.Error("a history prompt read as the composer")
	}
}
