package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// printVersions prints, for each pinned agent package, the pin, what the
// cache dir has installed, what the fixtures were recorded with (their
// README, which --record writes) and what the npm registry serves now
// (npm view; "?" when it cannot be asked), and marks a row whose columns
// differ: a drift is one command to see. It installs nothing.
func printVersions(cache string) error {
	vs, err := versions()
	if err != nil {
		return err
	}
	readme, _ := os.ReadFile(filepath.Join(realDir, "README.md"))
	fmt.Printf("%-30s %-10s %-10s %-10s %-10s\n", "package", "pinned", "installed", "recorded", "registry")
	for _, v := range vs {
		pkg, pin := v[0], v[1]
		installed := orMissing(installedVersion(cache, pkg))
		recorded := orMissing(recordedVersion(string(readme), pkg))
		latest := registryVersion(pkg)
		mark := ""
		for _, other := range []string{installed, recorded, latest} {
			if other != pin && other != "?" {
				mark = "  ← drift"
			}
		}
		fmt.Printf("%-30s %-10s %-10s %-10s %-10s%s\n", pkg, pin, installed, recorded, latest, mark)
	}
	return nil
}

func orMissing(v string) string {
	if v == "" {
		return "-"
	}
	return v
}

// recordedVersion is pkg's version in the fixtures' README ("- PKG V").
func recordedVersion(readme, pkg string) string {
	for line := range strings.Lines(readme) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "- "+pkg+" "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// registryVersion is the version the npm registry serves as pkg's latest,
// "?" when npm cannot say within 20 s.
func registryVersion(pkg string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "npm", "view", pkg, "version").Output()
	if v := strings.TrimSpace(string(out)); err == nil && v != "" && !strings.ContainsAny(v, " \n") {
		return v
	}
	return "?"
}
