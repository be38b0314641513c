package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
)

// A prompt sent right after `lanes new` waits for the agent to draw its
// prompt: the real Gemini CLI dropped what was typed before (a send at
// +1 s and +2 s after start was lost, +4 s arrived), and lanes said sent.
// The fake agent throws away whatever it reads before its prompt shows.
func TestSendWaitsForAJustStartedAgentsPrompt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := filepath.Join(t.TempDir(), "received")
	agent := `stty raw -echo; sleep 1.5; timeout --foreground 0.3 cat > /dev/null; printf '? for shortcuts'; exec cat > "$0"`
	r := fakePane(t, e, state.AgentClaude, []string{"sh", "-c", agent, out})
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, e.getenv)
	if err := a.svc().Send(context.Background(), r, "hello", false); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var got []byte
	for time.Now().Before(deadline) {
		if got, _ = os.ReadFile(out); string(got) == "hello\r" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the agent received %q, want %q", got, "hello\r")
}

// An agent that never draws its prompt gets nothing, and send says so.
func TestSendToAnAgentThatNeverShowsItsPrompt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := fakePane(t, e, state.AgentClaude, []string{"sleep", "600"})
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}, e.getenv)
	a.readyWait = 500 * time.Millisecond
	err := a.svc().Send(context.Background(), r, "hello", false)
	if err == nil || !strings.Contains(err.Error(), "nothing was sent") {
		t.Fatalf("send to an agent with no prompt on screen: %v", err)
	}
}

// fakePane starts command in a session of e's server and returns a live
// record of agent for it, started now.
func fakePane(t *testing.T, e *env, agent state.Agent, command []string) *state.Record {
	t.Helper()
	ctx := context.Background()
	args := append([]string{"new-session", "-d", "-s", "lanes-f", "-P", "-F", "#{session_id} #{pane_id}"}, command...)
	b, err := e.tc.Run(ctx, args...)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	now := time.Now().UTC()
	return &state.Record{ID: "abcd1234", Name: "f", Agent: agent, CreatedAt: now,
		Runtime:  state.Runtime{Socket: e.tc.Socket, TmuxSession: "lanes-f", SessionID: f[0], PaneID: f[1], Launch: "L1", PaneStartedAt: now},
		Activity: state.ActivityFacts{State: state.ActivityIdle, Since: now, Source: "user"}}
}
