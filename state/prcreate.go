package state

// PRCreate is what the board's P runs to open a PR for a session on branch
// in dir, in order: the push, then gh, run in dir. The confirm shows these
// very words and the command line runs them (argv, never a shell), so what
// the user agreed to is what runs.
func PRCreate(dir, branch string) (push, create []string) {
	return []string{"git", "-C", dir, "push", "-u", "origin", branch},
		[]string{"gh", "pr", "create", "--fill", "--head", branch}
}
