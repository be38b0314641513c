package state

import (
	"slices"
	"strings"
)

// GitSafeArgs go before every git command lanes runs itself: whatever a
// config file (an included one, a worktree's) says, git runs no
// filesystem monitor and no hook of it (the eleventh hostile re-run: an
// include.path, a config.worktree and a core.hooksPath another user could
// write ran their commands as root). The user's own hooks do not run for
// lanes' worktree add and push either.
var GitSafeArgs = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"}

// gitPlaceVars are the variables that tell git where a repository and its
// parts are, over the directory it is run in: lanes names the checkout
// itself (-C), and one of them in its environment, relative especially,
// made git read another repository's config than the one lanes checked
// (the nineteenth hostile re-run: GIT_DIR=../pub/g from a session dir).
var gitPlaceVars = []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_COMMON_DIR=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_NAMESPACE=", "GIT_CONFIG=", "GIT_DISCOVERY_ACROSS_FILESYSTEM=", "GIT_CEILING_DIRECTORIES="}

// GitEnv is env (KEY=VALUE each) for a git lanes runs: without the
// variables that would point git elsewhere than the checkout it names.
func GitEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return slices.ContainsFunc(gitPlaceVars, func(p string) bool { return strings.HasPrefix(kv, p) })
	})
}
