package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lanes/scripts/internal/world"
)

// rawSink starts session sink, whose program writes every byte it reads to
// a file with its terminal raw (no echo, no line editing, no CR/LF
// translation), and returns that file once the program is ready.
func rawSink(w *world.World) (string, error) {
	out := filepath.Join(w.Root, "received")
	r := w.Lanes("", "new", "sink", "--", "sh", "-c", `stty raw -echo && echo ready && exec cat > "$0"`, out)
	if r.Code != 0 {
		return "", fmt.Errorf("lanes new: %s", r.Stderr)
	}
	if !world.WaitFor(10*time.Second, func() bool {
		s, _ := w.Tmux(w.Socket, "capture-pane", "-p", "-t", "=lanes-sink:")
		return strings.Contains(s, "ready")
	}) {
		return "", fmt.Errorf("the sink never started")
	}
	return out, nil
}

// waitReceived waits until file holds at least len(want) bytes and says
// whether it holds exactly want.
func waitReceived(file, want string) (string, bool) {
	var got []byte
	world.WaitFor(10*time.Second, func() bool {
		got, _ = os.ReadFile(file)
		return len(got) >= len(want)
	})
	return string(got), string(got) == want
}

// argvScanner reads the argv of every process on the machine, over and
// over, the way any local user can, and counts the ones holding marker.
type argvScanner struct {
	marker           []byte
	scans, sendsSeen atomic.Int64
	inTmux, inOther  atomic.Int64
	stop             chan struct{}
	done             sync.WaitGroup
	mu               sync.Mutex
	leaks            []string // argv of tmux processes holding the marker
}

func scanArgv(marker string) *argvScanner {
	s := &argvScanner{marker: []byte(marker), stop: make(chan struct{})}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			s.scan()
		}
	}()
	return s
}

func (s *argvScanner) scan() {
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		argv, err := os.ReadFile("/proc/" + p.Name() + "/cmdline")
		if err != nil || len(argv) == 0 {
			continue // gone already, or a kernel thread
		}
		name, _, _ := bytes.Cut(argv, []byte{0})
		isTmux := filepath.Base(string(name)) == "tmux"
		if isTmux && (bytes.Contains(argv, []byte("\x00load-buffer\x00")) || bytes.Contains(argv, []byte("\x00if-shell\x00"))) {
			s.sendsSeen.Add(1) // a send's tmux invocation, caught in flight
		}
		switch {
		case !bytes.Contains(argv, s.marker):
		case isTmux:
			s.inTmux.Add(1)
			s.mu.Lock()
			s.leaks = append(s.leaks, strings.ReplaceAll(string(argv), "\x00", " "))
			s.mu.Unlock()
		default:
			s.inOther.Add(1)
		}
	}
	s.scans.Add(1)
}

func (s *argvScanner) close() { close(s.stop); s.done.Wait() }

// drillPromptsNotInArgv (16.3): while a poller reads every process's argv
// from /proc, N prompts are sent, half as arguments of `lanes send` and
// half on its stdin (`lanes send sink -`). No tmux process may ever hold a
// prompt in its argv, lanes itself only the ones the user put there, and
// every prompt must arrive in the pane byte for byte.
func drillPromptsNotInArgv(w *world.World) (string, error) {
	n := 40
	if *quick {
		n = 8
	}
	out, err := rawSink(w)
	if err != nil {
		return "", err
	}
	marker := "lanes-drill-prompt-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	scanner := scanArgv(marker)
	var want strings.Builder
	// A scan proves something only when it caught sends in flight: on a
	// loaded machine the poller may miss a few, so the sends go on (up to
	// a bound) until it caught some.
	const caught, most = 2, 400
	deadline := time.Now().Add(90 * time.Second)
	sent := 0
	for i := 0; i < n || scanner.sendsSeen.Load() < caught && i < most && time.Now().Before(deadline); i++ {
		sent++
		text := fmt.Sprintf("%s %d: fix the tests; $(id) 'quoted' \"double\" ünïcødé", marker, i)
		var r world.Result
		if i%2 == 0 {
			r = w.Lanes("", "send", "sink", "--", text)
		} else {
			r = w.Lanes(text+"\n", "send", "sink", "-")
		}
		if r.Code != 0 {
			scanner.close()
			return "", fmt.Errorf("send %d: exit %d: %s", i, r.Code, r.Stderr)
		}
		want.WriteString(text + "\r") // Enter is a carriage return on a raw terminal
	}
	scanner.close()
	got, exact := waitReceived(out, want.String())
	buffers, _ := w.Tmux(w.Socket, "list-buffers")
	evidence := fmt.Sprintf("%d sends (%d as arguments, %d on stdin), %d /proc scans caught a send's tmux process in flight %d times: "+
		"%d prompts seen in tmux argv, %d in lanes' own argv (given as arguments); %d of %d bytes arrived exactly; %d buffers left",
		sent, (sent+1)/2, sent/2, scanner.scans.Load(), scanner.sendsSeen.Load(),
		scanner.inTmux.Load(), scanner.inOther.Load(), len(got), want.Len(), strings.Count(buffers, "\n"))
	switch {
	case scanner.inTmux.Load() > 0:
		return evidence, fmt.Errorf("a prompt was readable in tmux's argv: %q", scanner.leaks[0])
	case !exact:
		return evidence, fmt.Errorf("the pane received %q, want %q", got, want.String())
	case buffers != "":
		return evidence, fmt.Errorf("paste buffers left in the server: %s", buffers)
	case scanner.sendsSeen.Load() == 0:
		return evidence, fmt.Errorf("the poller never caught a send's tmux process in %d sends: too slow to prove anything", sent)
	}
	return evidence, nil
}

// drillSendArgs (16.12): a first word like -x is a usage error that points
// at "--"; "--" ends the flags and is not typed; blank text is refused
// rather than pressing Enter alone.
func drillSendArgs(w *world.World) (string, error) {
	out, err := rawSink(w)
	if err != nil {
		return "", err
	}
	var ev []string
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"send", "sink", "-x"}, 2, "put -- before it"},
		{[]string{"send", "sink", ""}, 2, "nothing to send"},
		{[]string{"send", "sink", " "}, 2, "nothing to send"},
		{[]string{"send", "sink", "--"}, 2, "send needs a NAME and TEXT"},
		{[]string{"send", "sink", "--", "-x"}, 0, ""},
	} {
		r := w.Lanes("", c.args...)
		said := grepLine(r.Stderr, c.says)
		if c.code == 0 {
			said = "(sent)"
		}
		ev = append(ev, fmt.Sprintf("send sink %q: exit %d %s", strings.Join(c.args[2:], " "), r.Code, said))
		if r.Code != c.code || !strings.Contains(r.Stderr, c.says) {
			return strings.Join(ev, "\n"), fmt.Errorf("lanes %q: exit %d %q, want %d %q", c.args, r.Code, r.Stderr, c.code, c.says)
		}
	}
	got, exact := waitReceived(out, "-x\r")
	ev = append(ev, fmt.Sprintf("the agent received exactly %q", got))
	if !exact {
		return strings.Join(ev, "\n"), fmt.Errorf("the agent received %q, want only \"-x\\r\"", got)
	}
	return strings.Join(ev, "\n"), nil
}
