package session

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// Where lanes reads the agent's input, send presses Enter only once the
// input shows the pasted text, and presses it again, once, while the
// text stays there: the 60-minute Gemini CLI campaign's step 371 had a
// prompt left unsent in the composer of a Gemini just restarted on a
// loaded machine, and send said it was sent. The pane here is a fake
// tmux whose capture is Gemini 0.61.0's composer as recorded, empty or
// holding the text, by how many pastes and Enters it has had.
func TestSendWatchesTheInput(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "gemini", "composer"))
	if err != nil {
		t.Fatal(err)
	}
	empty, holds := quote(filepath.Join(dir, "taken.screen")), quote(filepath.Join(dir, "holds.screen"))
	for _, c := range []struct {
		name   string
		shows  bool // the paste shows in its input
		takes  int  // the Enter it takes the prompt on (0: none)
		enters int
		err    string
	}{
		{name: "taken at once", shows: true, takes: 1, enters: 1},
		{name: "first Enter lost", shows: true, takes: 2, enters: 2},
		{name: "never taken", shows: true, enters: 2, err: "stayed in its input after Enter twice"},
		{name: "paste never shows", err: "did not show in its input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			screen := `p=$(grep -c paste-buffer "$LOG"); e=$(grep -c send-keys "$LOG")
if [ "$p" -eq 0 ] || [ ` + map[bool]string{true: "1", false: "0"}[c.shows] + ` -eq 0 ]; then cat ` + empty + `
elif [ ` + strconv.Itoa(c.takes) + ` -gt 0 ] && [ "$e" -ge ` + strconv.Itoa(c.takes) + ` ]; then cat ` + empty + `
else cat ` + holds + `; fi`
			calls := fakeTmux(t, reply{cmd: "capture-pane", sh: screen})
			s := newService(t, "lanes-test-fake", 5*time.Second)
			r := liveRecord(t, s)
			r.Agent = state.AgentGemini
			err := s.Send(bg, r, "Run the command.", false)
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("send = %v, want %q", err, c.err)
			}
			enters := 0
			for _, call := range calls() {
				if strings.Contains(call, "send-keys") {
					enters++
				}
			}
			if enters != c.enters {
				t.Errorf("%d Enters, want %d", enters, c.enters)
			}
		})
	}
}
