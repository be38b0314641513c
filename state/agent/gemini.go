package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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
	defaults := newObject()
	b, err := os.ReadFile(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Plan{Args: args, Note: "Gemini hooks not injected: cannot read system defaults " + base + ": " + err.Error()}, nil
	default:
		if defaults, err = decodeObject(b); err != nil {
			// Never shadow a defaults file lanes cannot reproduce.
			return Plan{Args: args, Note: "Gemini hooks not injected: system defaults " + base + " is not plain JSON: " + err.Error()}, nil
		}
	}
	if err := mergeHooks(defaults, "gemini", geminiHooks, geminiHandler(lanesBin, false)); err != nil {
		return Plan{Args: args, Note: "Gemini hooks not injected: system defaults " + base + ": " + err.Error()}, nil
	}
	file := filepath.Join(dir, "gemini-system-defaults.json")
	return Plan{
		Args:     args,
		Env:      injectedEnv(EnvGeminiSystemDefaults + "=" + file),
		Files:    map[string][]byte{file: encodeJSON(defaults)},
		Injected: true,
	}, nil
}
