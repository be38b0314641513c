package state

// PRCreate is what the board's P runs, in dir, to open a PR for a session
// on branch: the push, then gh. The confirm shows these
// very words and the command line runs them (argv, never a shell), so what
// the user agreed to is what runs.
// (The push, like every git of lanes', takes no local transport:
// git.SafeArgs.)
func PRCreate(branch string) (push, create []string) {
	return []string{"git", "push", "-u", "origin", branch},
		[]string{"gh", "pr", "create", "--fill", "--head", branch}
}
