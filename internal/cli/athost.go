package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"lanes/internal/remote"
	"lanes/state"
)

// NAME@HOST: the commands that act on one session act on another host's
// when its name says which (a host of the hosts file), running there as
// `lanes COMMAND NAME …` over ssh, each word quoted (docs/design.md §16).
// A plain NAME stays this host's.

// valueFlags are the flags of remote.AtHostCommands that take a value,
// which may come before NAME.
var valueFlags = []string{"-dialog", "--dialog", "-last", "--last"}

// atHost runs cmd with args on another host when its NAME is NAME@HOST,
// and reports whether it did (code is then its exit code).
func (a *app) atHost(ctx context.Context, cmd string, args []string) (code int, done bool) {
	if !slices.Contains(remote.AtHostCommands, cmd) {
		return 0, false
	}
	at := nameArg(args)
	if at < 0 {
		return 0, false
	}
	name, host, ok := strings.Cut(args[at], "@")
	if !ok {
		return 0, false
	}
	if p := state.NameProblem(name); p != "" {
		return a.fail(fmt.Errorf("%q: a session name is letters, digits, - and _ (%s)", state.CleanText(name), p)), true
	}
	hosts, warn := a.hosts()
	a.warnHosts(warn)
	i := slices.IndexFunc(hosts, func(h remote.Host) bool { return h.Name == host })
	if i < 0 {
		return a.fail(fmt.Errorf("no host %q in the hosts file (%s): `lanes doctor` lists them", state.CleanText(host), remote.HostsPath(a.getenv))), true
	}
	there := slices.Concat([]string{cmd}, args[:at], []string{name}, args[at+1:])
	if cmd == "attach" {
		return a.attachThere(hosts[i], there), true
	}
	var stdin io.Reader
	if cmd == "send" {
		// The prompt goes on ssh's stdin, never in an argv (here, in the
		// remote shell's, or in lanes' there): `send NAME -` there.
		flags, text := sendWords(args[:at], args[at+1:])
		there = slices.Concat([]string{"send"}, flags, []string{name, "-"})
		stdin = strings.NewReader(text)
		if text == "-" {
			stdin = a.stdin
		}
	}
	ctx, cancel := context.WithTimeout(ctx, atHostTimeout)
	defer cancel()
	out, err := a.ssh().Run(ctx, hosts[i], stdin, there...)
	switch {
	case cmd == "peek" && slices.Contains(args, "--color"):
		_, _ = a.stdout.Write(state.KeepSGR(out)) // another host's words: its colours alone
	case cmd == "peek", cmd == "diff", cmd == "history":
		_, _ = a.stdout.Write([]byte(state.CleanLines(string(out))))
	default: // a report, whose hints name the host's sessions
		_, _ = a.stdout.Write([]byte(remote.Across(state.CleanLines(string(out)), hosts[i].Name)))
	}
	if code, there := remote.ExitCode(err); there && code != 0 {
		fmt.Fprintf(a.stderr, "lanes: %s\n", state.CleanLines(err.Error()))
		return code, true // what lanes there said, by its own exit code
	}
	if err != nil {
		return a.fail(err), true
	}
	return exitOK, true
}

// atHostTimeout bounds a command run on another host: a link that falls
// silent would otherwise hold it for good.
const atHostTimeout = time.Minute

// sendWords splits send's words, those before NAME and those after, into
// its flags and its text (the words joined, as send joins them; "-" for
// stdin).
func sendWords(before, after []string) (flags []string, text string) {
	var words []string
	for _, w := range before {
		if w == "--force" || w == "-force" {
			flags = append(flags, "--force")
		}
	}
	for i, w := range after {
		switch {
		case w == "--":
			return flags, strings.Join(append(words, after[i+1:]...), " ")
		case len(words) == 0 && (w == "--force" || w == "-force"):
			flags = append(flags, "--force")
		default:
			words = append(words, w)
		}
	}
	return flags, strings.Join(words, " ")
}

// nameArg is the index of the NAME in a command's args: the first word
// that is no flag nor a flag's value; -1 when there is none.
func nameArg(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return -1
		case slices.Contains(valueFlags, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// attachThere hands this terminal to `lanes attach NAME` on h, over ssh
// with a terminal of its own.
func (a *app) attachThere(h remote.Host, args []string) int {
	argv := a.ssh().Interactive(h, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return a.fail(fmt.Errorf("attach on %s: ssh %s: %w", h.Name, h.Dest, err))
	}
	return exitOK
}

// newThere is what new says of a NAME@HOST naming a host of the hosts
// file: new takes no NAME@HOST, and how a session starts there ("" for
// any other name).
func (a *app) newThere(name string) string {
	_, host, ok := strings.Cut(name, "@")
	if !ok {
		return ""
	}
	hosts, _ := a.hosts()
	i := slices.IndexFunc(hosts, func(h remote.Host) bool { return h.Name == host })
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("; new starts sessions on this host: on %s, `ssh %s lanes new …`, or the board's n with the @ filter on %s", host, hosts[i].Dest, host)
}
