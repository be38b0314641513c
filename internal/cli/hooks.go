package cli

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"lanes/agent"
	"lanes/internal/fsafe"
	"lanes/internal/session"
	"lanes/state"
)

// cmdHooks installs lanes' hooks into an agent's own config, for sessions
// started outside lanes (sessions lanes starts get them injected anyway),
// or takes out again exactly the ones install put in.
func (a *app) cmdHooks(_ context.Context, args []string) int {
	fl := a.flags("hooks")
	project := fl.String("project", "", "use this project's config instead of the user's")
	dryRun := fl.Bool("dry-run", false, "print the change as a diff and write nothing")
	if code, done := a.parse(fl, args); done {
		return code
	}
	if fl.NArg() != 2 || (fl.Arg(0) != "install" && fl.Arg(0) != "uninstall") {
		return a.usageErr(fl, "usage: lanes hooks install|uninstall AGENT (%s)", orList(codingAgents()))
	}
	install := fl.Arg(0) == "install"
	ag := state.Agent(fl.Arg(1))
	if !slices.Contains(codingAgents(), string(ag)) {
		return a.usageErr(fl, "unknown agent %q (want %s)", ag, orList(codingAgents()))
	}
	dir, err := a.stateDir()
	if err != nil {
		return a.fail(err)
	}
	projectDir := ""
	if *project != "" {
		if projectDir, err = session.WorkDir("--project", *project); err != nil {
			return a.fail(err)
		}
	}
	doing := "uninstalling"
	var target *fsafe.Target
	var before, after []byte
	if install {
		doing = "installing"
		var self string
		if self, err = hookBinary(dir); err != nil {
			return a.fail(err)
		}
		target, before, after, err = agent.Install(ag, self, a.getenv("HOME"), projectDir)
	} else {
		target, before, after, err = agent.Uninstall(ag, a.getenv("HOME"), projectDir)
	}
	if err != nil {
		return a.fail(fmt.Errorf("%s %s hooks: %w", doing, ag, err))
	}
	defer target.Close()
	path := target.Path
	if bytes.Equal(before, after) {
		switch {
		case !install:
			fmt.Fprintf(a.stdout, "no lanes %s hooks are installed in %s: nothing to remove\n", ag, path)
		case *dryRun:
			fmt.Fprintf(a.stdout, "%s hooks are already installed in %s: nothing would change\n", ag, path)
		default:
			fmt.Fprintf(a.stdout, "%s hooks are already installed in %s\n", ag, path)
		}
		return exitOK
	}
	if *dryRun {
		fmt.Fprint(a.stdout, hookDiff(path, install, target.Exists(), before, after))
		return exitOK
	}
	return a.writeHooks(target, ag, install, before, after)
}

// writeHooks writes after over target's before (install, or uninstall
// when !install): a backup first, then the new file renamed over the old.
func (a *app) writeHooks(target *fsafe.Target, ag state.Agent, install bool, before, after []byte) int {
	doing, path := "uninstalling", target.Path
	if install {
		doing = "installing"
	}
	if installRace != nil {
		installRace()
	}
	if after == nil { // OpenCode's plugin, pi's extension: lanes' own file
		if err := target.Remove(); err != nil {
			return a.fail(fmt.Errorf("uninstalling %s hooks: %w", ag, err))
		}
		fmt.Fprintf(a.stdout, "removed lanes' %s hooks file %s\n", ag, path)
		return exitOK
	}
	// The project dir may be writable by others: the backup and the new
	// file are new files under names nobody can guess, made in the
	// directory the target holds open, and the new file is renamed over the
	// old, so neither a link planted there nor a directory swapped for a
	// link is written through.
	if target.Exists() {
		backup, err := target.Backup(".lanes-backup-"+a.now().UTC().Format("20060102T150405Z")+"-", before)
		if err != nil {
			return a.fail(fmt.Errorf("writing a backup of %s: %w (nothing was changed)", path, err))
		}
		fmt.Fprintf(a.stdout, "backup: %s\n", backup)
	}
	if err := target.Replace(after); err != nil {
		return a.fail(fmt.Errorf("%s %s hooks: %w", doing, ag, err))
	}
	if install {
		fmt.Fprintf(a.stdout, "installed %s hooks in %s\n", ag, path)
		return exitOK
	}
	bins, _ := agent.InstalledBinaries(ag, before) // it parsed for Uninstall
	fmt.Fprintf(a.stdout, "removed %d lanes %s hook(s) from %s (they ran %s)\n", len(bins), ag, path, strings.Join(uniq(bins), ", "))
	return exitOK
}

// uniq is ss without repeats, in first-seen order.
func uniq(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// installRace, when set (by tests), runs between reading the config and
// writing it: where another user who can write the project dir would swap
// a directory on the path for a link.
var installRace func()
