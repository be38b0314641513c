package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanes/state"
)

// installBytes installs lanes' Claude hooks over a settings file holding
// user and returns what Install would write.
func installBytes(t *testing.T, user string) []byte {
	t.Helper()
	home := t.TempDir()
	write(t, filepath.Join(home, ".claude", "settings.json"), user)
	_, _, after, err := install(t, state.AgentClaude, testBin, home, "")
	if err != nil {
		t.Fatal(err)
	}
	checkHooks(t, parseSettings(t, after), claudeHooks, "'/usr/local/bin/lanes' hook claude --installed")
	return after
}

func TestInstallKeepsACompactFile(t *testing.T) {
	const user = `{"model":"opus","env":{"A":"1"},"statusLine":{"type":"command","command":"x"}}` + "\n"
	after := string(installBytes(t, user))
	head, tail := strings.TrimSuffix(user, "}\n"), "}\n"
	if !strings.HasPrefix(after, head+`,"hooks":{`) || !strings.HasSuffix(after, tail) || strings.Count(after, "\n") != 1 {
		t.Fatalf("the compact line was rewritten:\n%s", after)
	}
}

func TestInstallKeepsEscapesAndDuplicates(t *testing.T) {
	const user = "{\n  \"name\": \"caf\\u00e9 <b>\",\n  \"x\": 1,\n  \"x\": 2\n}\n"
	after := string(installBytes(t, user))
	if !strings.HasPrefix(after, strings.TrimSuffix(user, "\n}\n")+",\n  \"hooks\": {\n    \"") {
		t.Fatalf("escapes or duplicate keys not kept:\n%s", after)
	}
}

func TestInstallKeepsComments(t *testing.T) {
	const user = `{
  // the model I pay for
  "model": "opus", /* inline */
  "env": {"A": "1"}, // trailing comma next
  "statusLine": {"type": "command", "command": "x"}, // mine
}
`
	after := string(installBytes(t, user))
	for _, s := range []string{"// the model I pay for\n  \"model\": \"opus\", /* inline */\n", `"env": {"A": "1"}, // trailing comma next`,
		`"statusLine": {"type": "command", "command": "x"}, // mine` + "\n  \"hooks\": {\n    \""} {
		if !strings.Contains(after, s) {
			t.Errorf("%q lost:\n%s", s, after)
		}
	}
	if !strings.HasSuffix(after, "\n    ]\n  },\n}\n") {
		t.Errorf("the trailing comma or the layout of the end lost:\n%s", after)
	}
}

// Removing lanes' hooks (merging with no specs, as every install does first)
// gives back the file as it was before lanes added them, byte for byte.
func TestInstallThenRemoveRoundTrips(t *testing.T) {
	for name, user := range map[string]string{
		"compact":    `{"model":"opus","env":{"A":"1"}}`,
		"one member": `{"model": "opus"}` + "\n",
		"indented":   "{\n\t\"model\": \"caf\\u00e9\",\n\t\"x\": 1,\n\t\"x\": 2\n}\n",
		"comments":   "{\n  \"model\": \"opus\", // mine\n  /* env */ \"env\": {},\n}\n",
		"own hooks":  "{\n  \"hooks\": {\n    // mine\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}] // end\n  }\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			after := installBytes(t, user)
			back, err := mergeFile(after, "claude", nil, claudeHandler(testBin, true))
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != user {
				t.Fatalf("removing lanes' hooks from\n%s\ngave\n%s\nwant\n%s", after, back, user)
			}
		})
	}
}

func TestInstallRefusesNotJSON(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".gemini", "settings.json")
	const user = "model = \"opus\"\n"
	write(t, path, user)
	_, _, _, err := install(t, state.AgentGemini, testBin, home, "")
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != user {
		t.Fatalf("file changed: %q", b)
	}
}
