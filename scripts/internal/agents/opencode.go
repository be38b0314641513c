package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// OpenCode installs its plugin package into every config dir it reads
// (~/.config/opencode, and the OPENCODE_CONFIG_DIR lanes injects) from the
// npm registry, in the background, on each start; offline that costs it about
// a minute per turn (docs/real-agents.md). A copy of the package stops it.

// seedOpenCode copies the plugin package from seed into dir, as hard links
// where the file system allows.
func seedOpenCode(seed, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, name := range []string{"node_modules", "package.json", "package-lock.json"} {
		src := filepath.Join(seed, name)
		if out, err := exec.Command("cp", "-al", src, dir).CombinedOutput(); err != nil {
			if out2, err := exec.Command("cp", "-R", src, dir).CombinedOutput(); err != nil {
				return fmt.Errorf("seeding %s with OpenCode's plugin package: %v: %s %s", dir, err, out, out2)
			}
		}
	}
	return nil
}

// opencodeWrapper writes, into binDir, an `opencode` that seeds the config
// dir lanes injects (known only once lanes has made the session) and then
// execs the real OpenCode, so the pane's process is OpenCode itself.
func opencodeWrapper(binDir, real, seed string) error {
	script := `#!/bin/sh
# Written by scripts/agents: seed the OPENCODE_CONFIG_DIR lanes injected with
# OpenCode's plugin package (else OpenCode fetches it from the registry), then
# run OpenCode in this process.
d="${OPENCODE_CONFIG_DIR:-}"
if [ -n "$d" ] && [ ! -e "$d/node_modules" ]; then
  mkdir -p "$d"
  for f in node_modules package.json package-lock.json; do
    cp -al ` + shq(seed) + `/"$f" "$d/" 2>/dev/null || cp -R ` + shq(seed) + `/"$f" "$d/"
  done
fi
exec ` + shq(real) + ` "$@"
`
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(binDir, "opencode"), []byte(script), 0o755)
}
