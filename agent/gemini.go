package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// EnvGeminiSystemDefaults is Gemini CLI's variable naming its system
// defaults settings file, the lowest-precedence settings layer.
const EnvGeminiSystemDefaults = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"

// geminiSystemDefaults is where Gemini CLI looks for system defaults when
// the variable is unset.
func geminiSystemDefaults(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/GeminiCli/system-defaults.json"
	case "windows":
		return `C:\ProgramData\gemini-cli\system-defaults.json`
	}
	return "/etc/gemini-cli/system-defaults.json"
}

// geminiLaunch points GEMINI_CLI_SYSTEM_DEFAULTS_PATH at a copy of the
// machine's system defaults (when there are any) with lanes' hooks added.
// Gemini CLI concatenates hook arrays across its settings layers, so the
// user's, project's and system's own hooks keep running, and no file of the
// user's is edited.
func geminiLaunch(lanesBin, dir string, userArgs []string, env func(string) string) (Plan, error) {
	args := append([]string{"gemini"}, userArgs...)
	base := env(EnvGeminiSystemDefaults)
	if base == "" {
		base = geminiSystemDefaults(runtime.GOOS)
	}
	b, err := os.ReadFile(base)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Plan{Args: args, Note: "Gemini hooks not injected: cannot read system defaults " + base + ": " + err.Error()}, nil
	}
	defaults, err := patchHooks(b, "gemini", geminiHooks, geminiHandler(lanesBin, false))
	if err != nil {
		// Never shadow a defaults file lanes cannot reproduce.
		return Plan{Args: args, Note: "Gemini hooks not injected: system defaults " + base + ": " + err.Error()}, nil
	}
	file := filepath.Join(dir, "gemini-system-defaults.json")
	if err := geminiReads(dir); err != nil {
		return Plan{Args: args, Note: "Gemini hooks not injected: Gemini CLI skips a system defaults file unless it and every directory above it belong to root and only root may write them (" +
			err.Error() + "); `lanes hooks install gemini` adds lanes' hooks to ~/.gemini/settings.json instead"}, nil
	}
	return Plan{
		Args:     args,
		Env:      injectedEnv(EnvGeminiSystemDefaults + "=" + file),
		Files:    map[string][]byte{file: defaults},
		Injected: true,
	}, nil
}

// geminiReads says why Gemini CLI would skip a system defaults file lanes
// writes into dir, nil when it would read it. Gemini CLI 0.61 skips one
// that is not owned by root, or under a directory not owned by root or
// writable by group or others ("Security Warning: Skipping system defaults
// file"), silently as far as the board goes. A variable for tests, whose
// temp dirs sit under a world-writable /tmp.
var geminiReads = func(dir string) error {
	if uid := os.Geteuid(); uid != 0 {
		return fmt.Errorf("lanes runs as uid %d, so the file it writes is not root's", uid)
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Not made yet: lanes makes it root's, 0700.
		case err != nil:
			return err
		default:
			st, ok := fi.Sys().(*syscall.Stat_t)
			if ok && st.Uid != 0 {
				return fmt.Errorf("%s belongs to uid %d", d, st.Uid)
			}
			if fi.Mode().Perm()&0o022 != 0 {
				return fmt.Errorf("%s is writable by group or others", d)
			}
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}
