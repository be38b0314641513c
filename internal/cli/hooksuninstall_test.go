package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userSettings is a settings file with comments, a trailing comma and a
// hook of the user's own, in the event lanes adds one to too.
const userSettings = `{
  // my model
  "model": "opus", /* inline */
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}], // mine
  },
}
`

// `lanes hooks uninstall` takes out exactly what install put in: the file
// is the user's again, byte for byte, and it says what it removed; a
// second run says nothing is installed and writes nothing.
func TestHooksUninstallRoundTrips(t *testing.T) {
	t.Parallel()
	for _, user := range []string{userSettings, `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`} {
		e := offlineEnv(t)
		path := filepath.Join(e.home, ".claude", "settings.json")
		writeFile(t, path, user)
		e.must("hooks", "install", "claude")
		installed := readFile(t, path)

		out := e.must("hooks", "uninstall", "claude", "--dry-run")
		if !strings.HasPrefix(out, "--- "+path+"\n+++ "+path+" (without lanes hooks)\n@@ ") || !strings.Contains(out, "\n-") {
			t.Errorf("dry run:\n%s", out)
		}
		if readFile(t, path) != installed {
			t.Fatal("the dry run changed the file")
		}

		out = e.must("hooks", "uninstall", "claude")
		if got := readFile(t, path); got != user {
			t.Fatalf("after uninstall:\n%s\nwant the user's file:\n%s", got, user)
		}
		if !strings.Contains(out, "backup: "+path+".lanes-backup-") ||
			!strings.Contains(out, "removed 13 lanes claude hook(s) from "+path+" (they ran "+e.state+"/bin/lanes)") {
			t.Errorf("uninstall said:\n%s", out)
		}
		if out := e.must("hooks", "uninstall", "claude"); out != "no lanes claude hooks are installed in "+path+": nothing to remove\n" {
			t.Errorf("second uninstall said:\n%s", out)
		}
		if readFile(t, path) != user {
			t.Error("the second uninstall changed the file")
		}
	}
}

// OpenCode's plugin file is lanes' own: uninstall removes it, in a project
// too; a missing one is nothing to remove.
func TestHooksUninstallOpenCode(t *testing.T) {
	t.Parallel()
	e := offlineEnv(t)
	project := t.TempDir()
	e.must("hooks", "install", "opencode", "--project", project)
	path := filepath.Join(project, ".opencode", "plugins", "lanes.js")
	out := e.must("hooks", "uninstall", "opencode", "--project", project, "--dry-run")
	if !strings.HasPrefix(out, "--- "+path+"\n+++ /dev/null (removed)\n") {
		t.Errorf("dry run:\n%s", out)
	}
	out = e.must("hooks", "uninstall", "opencode", "--project", project)
	if _, err := os.Lstat(path); !os.IsNotExist(err) || !strings.Contains(out, "removed lanes' opencode hooks file "+path) {
		t.Fatalf("plugin not removed (%v):\n%s", err, out)
	}
	if out := e.must("hooks", "uninstall", "opencode"); !strings.Contains(out, "nothing to remove") {
		t.Errorf("nothing installed:\n%s", out)
	}
	if _, errs, code := e.run("hooks", "uninstall"); code != exitUsage || !strings.Contains(errs, "install|uninstall") {
		t.Errorf("usage: %d %s", code, errs)
	}
}

// Hooks that run a lanes binary that is gone (a moved checkout, a removed
// build) are reported by doctor, with the fix.
func TestDoctorReportsHooksOfAMissingBinary(t *testing.T) {
	t.Parallel()
	e := offlineEnv(t)
	gone := filepath.Join(t.TempDir(), "old", "lanes")
	writeFile(t, filepath.Join(e.home, ".gemini", "settings.json"),
		`{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "'`+gone+`' hook gemini --installed"}]}]}}`)
	out, _, _ := e.run("doctor")
	if !strings.Contains(out, "!!  gemini: its installed lanes hooks run "+gone+", which no longer exists\n    fix: lanes hooks install gemini") {
		t.Errorf("doctor does not report the missing binary:\n%s", out)
	}

	// Installed by this lanes: no complaint.
	e.must("hooks", "install", "claude")
	out, _, _ = e.run("doctor")
	if strings.Contains(out, "claude: its installed lanes hooks run") {
		t.Errorf("doctor complains about hooks this lanes installed:\n%s", out)
	}

	// Another lanes binary that exists is not this one.
	other := filepath.Join(t.TempDir(), "lanes")
	writeFile(t, other, "#!/bin/sh\n")
	writeFile(t, filepath.Join(e.home, ".codex", "hooks.json"),
		`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "'`+other+`' hook codex --installed"}]}]}}`)
	out, _, _ = e.run("doctor")
	if !strings.Contains(out, "!!  codex: its installed lanes hooks run "+other+", not this lanes (") ||
		!strings.Contains(out, "fix: lanes hooks install codex") {
		t.Errorf("doctor does not report hooks of another lanes:\n%s", out)
	}
}
