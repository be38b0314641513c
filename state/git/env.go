package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// SafeArgs go before every git command lanes runs itself: whatever a
// config file (an included one, a worktree's) says, git runs no
// filesystem monitor and no hook of it (the eleventh hostile re-run: an
// include.path, a config.worktree and a core.hooksPath another user could
// write ran their commands as root). The user's own hooks do not run for
// lanes' worktree add and push either. And it takes no local transport (a
// path, file://, in any form git reads one: encoded, with .git added, a
// second url): receive-pack runs the hooks and config of the repository
// pushed to, which no -c reaches (the twentieth and twenty-first re-runs:
// another user's pre-receive ran as root on P); a PR needs a remote gh
// can reach anyway.
var SafeArgs = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.file.allow=never"}

// gitPlaceVars are the variables that tell git where a repository and its
// parts are, over the directory it is run in: lanes names the checkout
// itself (-C), and one of them in its environment, relative especially,
// made git read another repository's config than the one lanes checked
// (the nineteenth hostile re-run: GIT_DIR=../pub/g from a session dir).
var gitPlaceVars = []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_COMMON_DIR=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_NAMESPACE=", "GIT_CONFIG=", "GIT_DISCOVERY_ACROSS_FILESYSTEM=", "GIT_CEILING_DIRECTORIES=",
	// where git's own programs are: git runs its parts (git-branch, …)
	// from there (the twentieth re-run: one another user could write)
	"GIT_EXEC_PATH=",
	// the protocols git may use, over any protocol.*.allow: it undid
	// SafeArgs' protocol.file.allow=never (the twenty-second re-run)
	"GIT_ALLOW_PROTOCOL="}

// Env is env (KEY=VALUE each) for a git lanes runs: without the
// variables that would point git elsewhere than the checkout it names.
func Env(env []string) []string {
	// (~/ is the shell's HOME, the last one set: from / only if it is.)
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return slices.ContainsFunc(gitPlaceVars, func(p string) bool { return strings.HasPrefix(kv, p) }) ||
			relativeProgram(kv, filepath.IsAbs(home)) || gitConfigEnv(kv)
	})
	return AbsPATHIn(env)
}

// gitProgramVars name a program git runs (an ssh, a proxy, an askpass,
// which runs even with GIT_TERMINAL_PROMPT=0); GIT_SSH_COMMAND is a
// shell line, the others one program each.
var gitProgramVars = []string{"GIT_SSH=", "GIT_SSH_COMMAND=", "GIT_PROXY_COMMAND=", "GIT_ASKPASS=", "SSH_ASKPASS="}

// relativeProgram: kv names a program git runs that lanes cannot be sure
// is found from /, not under the checkout's top, where another user may
// write (the twenty-third and twenty-fourth hostile re-runs:
// GIT_SSH=tools/ssh, "x tools/ssh", GIT_SSH_COMMAND="cd tools; sh ssh"
// ran hers as root). One program: an absolute path, or a bare name (on
// PATH). A shell line: plain words only (no quote, no ; & | $ ` ( ) < >
// \), each with a slash starting at /, or at ~/ (the shell's HOME, when
// homeAbs), after an option's or a variable's "=".
func relativeProgram(kv string, homeAbs bool) bool {
	i := slices.IndexFunc(gitProgramVars, func(p string) bool { return strings.HasPrefix(kv, p) })
	if i < 0 {
		return false
	}
	v := kv[len(gitProgramVars[i]):]
	if gitProgramVars[i] != "GIT_SSH_COMMAND=" {
		return v != "" && !filepath.IsAbs(v) && strings.ContainsAny(v, "/ \t")
	}
	if strings.ContainsAny(v, "'\"\\;&|$`()<>\n") {
		return true
	}
	return slices.ContainsFunc(strings.Fields(v), func(w string) bool {
		w = w[strings.LastIndexByte(w, '=')+1:]
		return strings.Contains(w, "/") && !strings.HasPrefix(w, "/") && !(homeAbs && strings.HasPrefix(w, "~/"))
	})
}

// gitConfigEnv: kv is config git reads from the environment as if given
// with -c (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its KEY_n,
// VALUE_n): core.sshCommand, core.askPass, a credential helper there ran
// another user's program as the variables above did (the twenty-fourth
// re-run). lanes gives git its own -c.
func gitConfigEnv(kv string) bool {
	return strings.HasPrefix(kv, "GIT_CONFIG_PARAMETERS=") || strings.HasPrefix(kv, "GIT_CONFIG_COUNT=") ||
		strings.HasPrefix(kv, "GIT_CONFIG_KEY_") || strings.HasPrefix(kv, "GIT_CONFIG_VALUE_")
}

// AbsPATH is a PATH's absolute entries only: a relative one ("bin", a
// quoted "~/bin", "" for the current directory) names a directory under
// wherever a command runs, which another user may own (the twentieth
// hostile re-run: lanes, and git after it, ran her bin/git as root).
func AbsPATH(path string) string {
	dirs := filepath.SplitList(path)
	return strings.Join(slices.DeleteFunc(dirs, func(d string) bool { return !filepath.IsAbs(d) }), string(filepath.ListSeparator))
}

// AbsPATHIn is env (KEY=VALUE each) with every PATH's relative entries
// dropped (AbsPATH), in place.
func AbsPATHIn(env []string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + AbsPATH(v)
		}
	}
	return env
}

// Command is git with args, as lanes runs it everywhere: SafeArgs
// first, env through Env, and git found on that env's PATH's absolute
// entries (exec's own lookup reads the process's PATH and refuses a
// relative hit with an error that names no fix).
func Command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	env = Env(env)
	bin := "git"
	for i := len(env) - 1; i >= 0; i-- { // the last PATH wins, as in exec
		if path, ok := strings.CutPrefix(env[i], "PATH="); ok {
			bin = lookGit(path)
			break
		}
	}
	cmd := exec.CommandContext(ctx, bin, append(slices.Clone(SafeArgs), args...)...)
	cmd.Env = env
	return cmd
}

// lookGit is git's absolute path on path (absolute entries already), or
// "git" for exec to say it found none.
func lookGit(path string) string {
	for _, d := range filepath.SplitList(path) {
		if st, err := os.Stat(filepath.Join(d, "git")); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return filepath.Join(d, "git")
		}
	}
	return "git"
}
