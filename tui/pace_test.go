package tui

import (
	"bytes"
	"strconv"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// counter is a model whose view is its count (run through a pacer).
type counter struct{ n int }

type bump struct{}

func (c counter) Init() tea.Cmd { return nil }

func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case bump:
		c.n++
	case tea.KeyPressMsg:
		return c, tea.Quit
	}
	return c, nil
}

func (c counter) View() tea.View {
	s := "count " + strconv.Itoa(c.n)
	v := tea.NewView(s)
	v.AltScreen = true
	return v
}

// syncBuffer is the program's terminal.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// hasAfter reports whether sub was written after the first from bytes.
func (s *syncBuffer) hasAfter(from int, sub string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.b.Bytes()[from:], []byte(sub))
}

func (s *syncBuffer) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// The pacer reaches the ticker of the Bubble Tea this module builds with
// (if this fails, Bubble Tea moved its renderer's ticker: the board falls
// back to a fixed 15 fps, and this test says so), a change makes the ticks
// fast until it reached the terminal, and they go slow again after. How
// fast it arrives is scripts/bench's figure (hook line → card on screen).
func TestPacerDrivesTheRenderer(t *testing.T) {
	pc := newPacer()
	if pc == nil {
		t.Fatal("Bubble Tea's renderer ticker is out of reach: the board would tick at a fixed rate")
	}
	out := &syncBuffer{}
	p := tea.NewProgram(paced{counter{}, pc}, tea.WithInput(nil), tea.WithOutput(out), tea.WithFPS(pc.fps()),
		tea.WithWindowSize(40, 5), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	pc.prog = p
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Errorf("program: %v", err)
		}
	}()
	waitUntil(t, 5*time.Second, "the first frame", func() bool { return out.hasAfter(0, "count 0") })
	pc.mu.Lock()
	found := pc.ticker() != nil
	pc.mu.Unlock()
	if !found {
		t.Fatal("the pacer did not find the running program's ticker")
	}
	waitUntil(t, 5*time.Second, "the ticks to slow down", func() bool { return !pc.isFast() })
	for i := 1; i <= 5; i++ {
		// The renderer writes what changed: the digit.
		from, want := out.len(), strconv.Itoa(i)
		p.Send(bump{})
		waitUntil(t, 5*time.Second, "fast ticks for count "+want, func() bool { return pc.isFast() || out.hasAfter(from, want) })
		waitUntil(t, 5*time.Second, "count "+want, func() bool { return out.hasAfter(from, want) })
		waitUntil(t, 5*time.Second, "the ticks to slow down", func() bool { return !pc.isFast() })
	}
	// Output queued without a new view (a notification) makes them fast too.
	pc.kick()
	if !pc.isFast() {
		t.Error("kick left the ticks slow")
	}
	waitUntil(t, 5*time.Second, "the ticks to slow down after the kick", func() bool { return !pc.isFast() })
}

func (pc *pacer) isFast() bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.fast
}

// waitUntil polls cond until it holds, failing after d.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
