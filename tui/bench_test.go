package tui

import (
	"fmt"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"

	tea "charm.land/bubbletea/v2"
)

// many is n sessions spread over every lane the way a busy day looks.
func many(n int) []*state.Record {
	acts := []state.Activity{state.ActivityActive, state.ActivityIdle, state.ActivityWaitingInput, state.ActivityExited, state.ActivityBlocked}
	recs := make([]*state.Record, 0, n)
	for i := range n {
		id := fmt.Sprintf("s%07d", i)
		r := rec(id, fmt.Sprintf("agent-%03d", i), acts[i%len(acts)], time.Duration(i)*time.Minute)
		r.Branch = fmt.Sprintf("feat-%d", i)
		// Something to say on every card, longer than any card.
		r.Activity.Tool, r.Activity.ToolInput = "Bash", fmt.Sprintf("go test -race -run TestSomething%d ./state/... ./cli/... ./tui/...", i)
		r.Activity.Question = fmt.Sprintf("Which of the %d failing tests should I look at first, and should I rerun them?", i)
		r.Activity.LastMessage = fmt.Sprintf("Done: %d files changed, all the tests pass — 日本語 too 🎉, ready for review.", i)
		switch i % 7 {
		case 1:
			r = withPR(r, openPR(state.ReviewPending, state.CIPassing, state.MergeableUnknown))
		case 3:
			r = withPR(r, openPR(state.ReviewApproved, state.CIPassing, state.MergeableYes))
		case 5:
			r = terminated(r, "killed by user", time.Duration(i)*time.Minute)
		}
		recs = append(recs, r)
	}
	return recs
}

// BenchmarkView is one frame of a board of 200 and of 1,000 sessions in a
// 200×50 terminal, every card saying something too long for it (budget:
// 1 ms each). Only the cards that fit are drawn.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			m := loaded(many(n), ThemeDark, 200, 50)
			m = step(m, frameMsg{})
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// BenchmarkViewPreview adds the preview.
func BenchmarkViewPreview(b *testing.B) {
	m := loaded(many(200), ThemeDark, 200, 50)
	m = press(m, "p")
	m = step(m, previewMsg{id: m.board.selected().Rec.ID, name: "x", out: []byte("\x1b[32mok\x1b[0m line\nmore output here\n")})
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkViewHistory is the board under a full history overlay.
func BenchmarkViewHistory(b *testing.B) {
	m := loaded(many(200), ThemeDark, 200, 50)
	m = press(m, "H")
	var trs []state.Transition
	for i := range historyN {
		trs = append(trs, state.Transition{At: ago(time.Duration(historyN-i) * time.Minute), From: state.ActivityIdle,
			To: state.ActivityActive, Source: "hook:claude", Detail: "PreToolUse: Bash"})
	}
	m = step(m, historyMsg{id: m.hist.id, at: m.hist.at, trs: trs})
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkCycleApply is what Update does with a 200-session cycle: derive,
// sort, lay out.
func BenchmarkCycleApply(b *testing.B) {
	recs := many(200)
	m := loaded(recs, ThemeDark, 200, 50)
	msg := cycleMsg{res: store.CycleResult{Records: recs, At: fixedNow}, now: fixedNow}
	b.ReportAllocs()
	for b.Loop() {
		next, _ := m.Update(msg)
		m = next.(Model)
		m.cycling = true
	}
}

func BenchmarkResize(b *testing.B) {
	m := loaded(many(200), ThemeDark, 200, 50)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120 + i%100, Height: 50})
		m = next.(Model)
	}
}
