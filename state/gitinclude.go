package state

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// includedConfigs are the files a git config file includes (include.path,
// includeIf.*.path), as git resolves them: ~/ from the home directory, a
// relative path from the including file's directory. An included file
// another user can write is a config they can write (the twelfth
// re-run's filters through an include.path). Read like every git file
// lanes reads (ReadGitFile: a regular file, small, never blocking).
func includedConfigs(config string) []string {
	b, err := readConfigFile(config)
	if err != nil {
		return nil
	}
	var out []string
	include := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") {
			name := strings.ToLower(strings.TrimSpace(strings.Trim(strings.SplitN(l, "]", 2)[0], "[")))
			include = name == "include" || strings.HasPrefix(name, "includeif")
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		if !include || !ok || !strings.EqualFold(strings.TrimSpace(key), "path") {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"`)
		switch {
		case val == "":
			continue
		case strings.HasPrefix(val, "~/"):
			home, _ := os.UserHomeDir()
			val = filepath.Join(home, val[2:])
		case !filepath.IsAbs(val):
			val = filepath.Join(filepath.Dir(config), val)
		}
		out = append(out, val)
	}
	return out
}

// configMax is the most of a git config file lanes reads for its
// includes.
const configMax = 1 << 20

// readConfigFile reads a config file as ReadGitFile does, up to configMax.
func readConfigFile(path string) ([]byte, error) { return readRegular(path, configMax) }

// includesOwned checks, to a few levels, every file config includes with
// ownedAlone.
func includesOwned(config string, depth int) error {
	if depth > 4 {
		return nil
	}
	for _, p := range includedConfigs(config) {
		fi, err := os.Lstat(p)
		if err != nil {
			continue // git skips an include that is not there
		}
		if err := ownedAlone(p, fi); err != nil {
			return err
		}
		if err := includesOwned(p, depth+1); err != nil {
			return err
		}
	}
	return nil
}
