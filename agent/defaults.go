package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"lanes/state"
)

// systemDefaults is how an agent of Gemini CLI's family takes lanes'
// hooks: its lowest-precedence settings layer, the machine's system
// defaults file, named by a variable. Its launch points the variable at a
// copy of the machine's file (when there is one) with lanes' hooks added.
// These agents concatenate hook arrays across their settings layers, so
// the user's, project's and system's own hooks keep running, and no file
// of the user's is edited.
type systemDefaults struct {
	agent         state.Agent
	binary, title string
	// env is the variable naming the file, file its name under HookDir.
	env, file string
	// machine is where the agent reads its system defaults when env is
	// unset.
	machine func(env func(string) string) string
	hooks   []hookSpec
	handler func(lanesBin string, installed bool) hookHandler
	// reads says why the agent would skip the file lanes writes into dir,
	// nil when it would read it; nil: it reads any.
	reads func(dir string) error
}

func (s systemDefaults) launch(lanesBin, dir string, userArgs []string, env func(string) string) (Plan, error) {
	args := append([]string{s.binary}, userArgs...)
	notInjected := func(why string) (Plan, error) {
		return Plan{Args: args, Note: s.title + " hooks not injected: " + why}, nil
	}
	base := env(s.env)
	if base == "" {
		base = s.machine(env)
	}
	b, err := os.ReadFile(base)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return notInjected("cannot read system defaults " + base + ": " + err.Error())
	}
	defaults, err := patchHooks(b, string(s.agent), s.hooks, s.handler(lanesBin, false))
	if err != nil {
		// Never shadow a defaults file lanes cannot reproduce.
		return notInjected("system defaults " + base + ": " + err.Error())
	}
	if s.reads != nil {
		if err := s.reads(dir); err != nil {
			return notInjected(err.Error())
		}
	}
	file := filepath.Join(dir, s.file)
	return Plan{
		Args:     args,
		Env:      injectedEnv(s.env + "=" + file),
		Files:    map[string][]byte{file: defaults},
		Injected: true,
	}, nil
}
