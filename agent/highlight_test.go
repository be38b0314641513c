package agent

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"lanes/state"
)

// The seventh hostile re-run: with OpenCode's highlight moved to "Allow
// always" (one Right, by a person in the pane), `lanes answer no` sent
// Right Right Enter, which wrapped to "Allow once" and ran the command;
// `yes` sent Enter and took "Allow always". Its text capture is the same
// whatever is highlighted; the styled one (the real OpenCode 1.18.33, 256
// colours and true colour, 200 and 100 columns) shows it, and the keys
// are counted from it.
func TestOpenCodeKeysFollowTheHighlight(t *testing.T) {
	sum := CallSum(state.AgentOpenCode, "bash", []byte(`{"command":"touch four.txt"}`), nil)
	// No is Esc, wherever the highlight is; yes follows it.
	esc := []string{"Escape"}
	for file, want := range map[string][2][]string{
		"dialog-once":       {{"Enter"}, esc},
		"tc-dialog-once":    {{"Enter"}, esc},
		"dialog-100-once":   {{"Enter"}, esc},
		"dialog-always":     {{"Right", "Right", "Enter"}, esc},
		"tc-dialog-always":  {{"Right", "Right", "Enter"}, esc},
		"dialog-100-always": {{"Right", "Right", "Enter"}, esc},
		"dialog-reject":     {{"Right", "Enter"}, esc},
		"tc-dialog-reject":  {{"Right", "Enter"}, esc},
	} {
		screen := highlightScreen(t, file)
		for i, ans := range []Answer{Yes, No} {
			got, err := CheckDialog(state.AgentOpenCode, ans, sum, screen)
			if err != nil || !slices.Equal(got, want[i]) {
				t.Errorf("%s: %s = %q, %v; want %q", file, ans, got, err, want[i])
			}
		}
		if plain := unstyled(screen); !testingShowsCall(plain) {
			t.Errorf("%s: its text lost the call", file)
		}
	}
	// Its "Always allow" step asks to confirm a rule: no answer of lanes',
	// and Esc leaves it (an Enter that landed there is undone).
	confirm := highlightScreen(t, "always-confirm")
	if _, err := CheckDialog(state.AgentOpenCode, Yes, sum, confirm); err == nil {
		t.Error("the Always allow step took a key")
	}
	if k := SteppedInto(state.AgentOpenCode, confirm); !slices.Equal(k, esc) {
		t.Errorf("SteppedInto(the Always allow step) = %q", k)
	}
	if k := SteppedInto(state.AgentOpenCode, highlightScreen(t, "dialog-once")); k != nil {
		t.Errorf("SteppedInto(the dialog) = %q", k)
	}
}

func highlightScreen(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "real", "opencode", "highlight", name+".screen"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func testingShowsCall(plain string) bool {
	d, ok := readDialog(state.AgentOpenCode, plain)
	return ok && d.call == "touch four.txt"
}

// Where no option, or more than one, is drawn unlike the others, the
// highlight is not known and no key goes.
func TestHighlightNeedsOneOddOption(t *testing.T) {
	labels := []string{"Allow once", "Allow always", "Reject"}
	for line, want := range map[string]int{
		"\x1b[48;5;234m  \x1b[48;5;215m \x1b[38;5;232mAllow once\x1b[38;5;15m \x1b[48;5;234m  Allow always   Reject": 0,
		"\x1b[48;2;30;30;30m Allow once \x1b[48;2;245;167;66m Allow always \x1b[49m Reject":                          -1,
		"  Allow once   Allow always   Reject":                                                                       -1,
		"\x1b[41m Allow once \x1b[0m Allow always \x1b[42mReject":                                                    -1,
		"\x1b[38;5;215m Allow once \x1b[48;5;3mAllow always\x1b[49m  Reject":                                         1,
	} {
		got, ok := highlighted(line, labels)
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("highlighted(%q) = %d, want %d", line, got, want)
		}
	}
}
