package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tailscale/hujson"

	"lanes/internal/fsafe"
	"lanes/state"
)

// Uninstall computes the agent's config file without the hooks Install
// added: those whose command is `'BIN' hook AGENT --installed`, whatever
// BIN is. It opens the file as Install does (the caller writes a backup and
// the file through it, or prints the diff for --dry-run, and closes it) and
// returns its current bytes (nil when it does not exist) and the bytes to
// write; before and after are equal when nothing was installed. Every
// other byte stays as it is, so uninstalling after installing gives back
// the file from before, and the user's handlers, in lanes' groups or not,
// stay. OpenCode's plugin file is lanes' alone: after is nil when it is to
// be removed, and a lanes.js lanes did not write is left alone.
func Uninstall(a state.Agent, home, projectDir string) (t *fsafe.Target, before, after []byte, err error) {
	path, err := InstallPath(a, home, projectDir)
	if err != nil {
		return nil, nil, nil, err
	}
	if t, err = fsafe.OpenTarget(path, os.Geteuid()); err != nil {
		return nil, nil, nil, err
	}
	if before, err = t.ReadFile(); err != nil {
		t.Close()
		return nil, nil, nil, err
	}
	if after, err = unpatch(a, before); err != nil {
		t.Close()
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, before, after, nil
}

func unpatch(a state.Agent, before []byte) ([]byte, error) {
	if d, _ := DriverOf(a); d != nil && d.plugin != nil {
		if bins, _ := InstalledBinaries(a, before); len(bins) > 0 {
			return nil, nil
		}
		return before, nil
	}
	if len(bytes.TrimSpace(before)) == 0 {
		return before, nil
	}
	v, err := parseObject(before)
	if err != nil {
		return nil, err
	}
	ours := func(cmd string) bool { _, ok := installedBinary(cmd, string(a)); return ok }
	l := layout{multi: bytes.ContainsRune(bytes.TrimSpace(before), '\n'), unit: detectIndent(before)}
	if err := mergeHooks(v.Value.(*hujson.Object), l, ours, nil, hookHandler{}); err != nil {
		return nil, err
	}
	if after := v.Pack(); !bytes.Equal(bytes.TrimSpace(after), bytes.TrimSpace(before)) {
		return after, nil
	}
	return before, nil
}

// InstalledBinaries lists the lanes binary each installed hook in an
// agent's config file runs, in the file's order (one per hook): what
// `lanes doctor` checks still exists. Injected hooks and the user's are not
// listed. A file that is not JSON or JSONC is an error.
func InstalledBinaries(a state.Agent, content []byte) ([]string, error) {
	if d, _ := DriverOf(a); d != nil && d.plugin != nil {
		return pluginBinary(content), nil
	}
	if len(bytes.TrimSpace(content)) == 0 {
		return nil, nil
	}
	v, err := parseObject(content)
	if err != nil {
		return nil, err
	}
	hv := member(v.Value.(*hujson.Object), "hooks")
	if hv == nil {
		return nil, nil
	}
	hooks, _ := hv.Value.(*hujson.Object)
	if hooks == nil {
		return nil, nil
	}
	var bins []string
	for _, ev := range hooks.Members {
		groups, _ := ev.Value.Value.(*hujson.Array)
		if groups == nil {
			continue
		}
		for _, g := range groups.Elements {
			gobj, _ := g.Value.(*hujson.Object)
			if gobj == nil {
				continue
			}
			hv := member(gobj, "hooks")
			if hv == nil {
				continue
			}
			hs, _ := hv.Value.(*hujson.Array)
			if hs == nil {
				continue
			}
			for i := range hs.Elements {
				if bin, ok := installedBinary(handlerCommand(&hs.Elements[i]), string(a)); ok {
					bins = append(bins, bin)
				}
			}
		}
	}
	return bins, nil
}

// pluginBinary is the binary of an installed plugin lanes wrote (the one
// in its `const LANES = "…";` line), none for any other file.
func pluginBinary(b []byte) []string {
	if !isLanesPlugin(b) || !bytes.Contains(b, []byte("\nconst INSTALLED = true;\n")) {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "const LANES = "); ok {
			var bin string
			if json.Unmarshal([]byte(strings.TrimSuffix(v, ";")), &bin) == nil {
				return []string{bin}
			}
		}
	}
	return nil
}
