// Command btfloor is the least a Bubble Tea v2 board costs: a full-screen
// program that draws one styled line per row, with the glyphs lanes draws,
// and redraws once a second. The bench measures its RSS beside the board's,
// in the same tmux server at the same size: it is the floor under any board
// built on Bubble Tea v2 and Lip Gloss v2 (their cell buffers, the width
// tables), whatever else the board does.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

type tick struct{}

type model struct {
	frame  int
	height int
}

func next() tea.Cmd { return tea.Tick(time.Second, func(time.Time) tea.Msg { return tick{} }) }

func (m model) Init() tea.Cmd { return next() }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, tea.Quit
	case tea.WindowSizeMsg:
		m.height = msg.Height
	case tick:
		m.frame++
		return m, next()
	}
	return m, nil
}

var (
	dim   = lipgloss.NewStyle().Foreground(lipgloss.Color("#8E96A3"))
	title = lipgloss.NewStyle().Bold(true)
)

func (m model) View() tea.View {
	var b strings.Builder
	b.WriteString(title.Render(fmt.Sprintf(" floor  ● 0 working  ○ %d idle  ◆ 0 needs you  ◐ 0 in review  ⇡ 0 ready to merge  □ 0 done", m.frame)))
	for i := 1; i < m.height; i++ {
		b.WriteString("\n" + dim.Render(fmt.Sprintf("  ○ s%-12d Idle │ ▌ ○ Idle · %d", i, m.frame)))
	}
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "btfloor:", err)
		os.Exit(1)
	}
}
