package agent

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanes/state"
)

// pi loads lanes' extension from the session's hook dir with -e; the
// user's arguments follow, and a repair reads them back.
func TestLaunchPi(t *testing.T) {
	stateDir := t.TempDir()
	p, err := Launch(state.AgentPi, testBin, stateDir, testSession, []string{"--model", "m"}, envOf())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(stateDir, "hooks", testSession, piFile)
	if !slices.Equal(p.Args, []string{"pi", "-e", file, "--model", "m"}) || !p.Injected {
		t.Fatalf("Args %q Injected %v", p.Args, p.Injected)
	}
	ext := string(p.Files[file])
	if !strings.HasPrefix(ext, pluginMarker) || !strings.Contains(ext, `const LANES = "/usr/local/bin/lanes";`) ||
		!strings.Contains(ext, `const ARGS = ["hook","pi"];`) || !strings.Contains(ext, "const INSTALLED = false;") {
		t.Errorf("the extension:\n%s", ext)
	}
	if cmd, ok := UserCommand(state.AgentPi, stateDir, testSession, p.Args); !ok || !slices.Equal(cmd, []string{"pi", "--model", "m"}) {
		t.Errorf("UserCommand = %q %v", cmd, ok)
	}
	if _, ok := UserCommand(state.AgentPi, stateDir, testSession, []string{"pi", "-e", "/home/u/mine.ts"}); ok {
		t.Error("the user's own extension was taken for lanes'")
	}
	// Installed, it names its binary and stands down where lanes injected.
	inst := piExtension("/opt/lanes", true)
	if bins, _ := InstalledBinaries(state.AgentPi, inst); !slices.Equal(bins, []string{"/opt/lanes"}) {
		t.Errorf("installed extension's binary: %q", bins)
	}
	if !strings.Contains(string(inst), `if (INSTALLED && process.env.`+EnvInjected+` === "1") return;`) {
		t.Error("the installed extension does not stand down where lanes injected its own")
	}
}
