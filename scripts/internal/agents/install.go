package main

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"
)

// pins is the one file naming the agents' exact versions.
//
//go:embed package.json
var pins []byte

// opencodePlugin is the package OpenCode installs into each of its config
// dirs on start (at its own version) unless it is already there.
const opencodePlugin = "@opencode-ai/plugin"

// versions are the pinned packages and versions, sorted by package.
func versions() ([][2]string, error) {
	var p struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(pins, &p); err != nil {
		return nil, fmt.Errorf("reading the pinned versions (scripts/internal/agents/package.json): %w", err)
	}
	var out [][2]string
	for name, v := range p.Dependencies {
		out = append(out, [2]string{name, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}

func version(pkg string) string {
	vs, _ := versions()
	for _, v := range vs {
		if v[0] == pkg {
			return v[1]
		}
	}
	return ""
}

// defaultCache is $LANES_AGENTS_CACHE, else <cache home>/lanes/agents/<hash of
// the pins>: a new pin installs beside the old one, never over it.
func defaultCache() (string, error) {
	if d := os.Getenv("LANES_AGENTS_CACHE"); d != "" {
		return d, nil
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding a cache dir (set LANES_AGENTS_CACHE or --cache): %w", err)
		}
		base = filepath.Join(home, ".cache")
	}
	sum := sha256.Sum256(pins)
	return filepath.Join(base, "lanes", "agents", hex.EncodeToString(sum[:6])), nil
}

// installedVersion is the version of pkg under prefix, "" when absent.
func installedVersion(prefix, pkg string) string {
	b, err := os.ReadFile(filepath.Join(prefix, "node_modules", pkg, "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(b, &p)
	return p.Version
}

// ErrNoNode: node or npm is missing; nothing can be installed or run.
var ErrNoNode = errors.New("node and npm are needed to install and run the real agents")

// install makes sure cache holds every pinned agent at its version, and a
// seed dir holding OpenCode's plugin package, which each OpenCode config dir
// gets a copy of (else OpenCode installs it from the registry on every start).
func install(cache string) (seed string, err error) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%w: %s is not on PATH (install Node.js 20 or later, e.g. apt-get install nodejs npm)", ErrNoNode, tool)
		}
	}
	vs, err := versions()
	if err != nil {
		return "", err
	}
	missing := false
	for _, v := range vs {
		if got := installedVersion(cache, v[0]); got != v[1] {
			missing = true
			have := "not installed"
			if got != "" {
				have = got + " installed"
			}
			fmt.Printf("agents: %s %s wanted, %s in %s\n", v[0], v[1], have, cache)
		}
	}
	if missing {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return "", fmt.Errorf("creating the agents cache: %w", err)
		}
		if err := os.WriteFile(filepath.Join(cache, "package.json"), pins, 0o644); err != nil {
			return "", fmt.Errorf("writing the pins into the agents cache: %w", err)
		}
		if err := npm(cache, "install", "--prefix", cache, "--no-audit", "--no-fund", "--save-exact"); err != nil {
			return "", err
		}
	}
	seed = filepath.Join(cache, "opencode-plugin-seed")
	want := version("opencode-ai")
	if installedVersion(seed, opencodePlugin) != want {
		if err := npm(cache, "install", "--prefix", seed, "--no-audit", "--no-fund", "--save-exact",
			"--ignore-scripts", opencodePlugin+"@"+want); err != nil {
			return "", err
		}
	}
	return seed, nil
}

func npm(dir string, args ...string) error {
	start := time.Now()
	fmt.Printf("agents: npm %v\n", args)
	cmd := exec.Command("npm", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm %v: %w (the registry must be reachable for the first install)", args, err)
	}
	fmt.Printf("agents: npm done in %.1fs\n", time.Since(start).Seconds())
	return nil
}
