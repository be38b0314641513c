package state

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a card says (docs/design.md §2, §8): the current tool with a short
// summary of its input, the question a dialog asks, the start of the last
// assistant message. The hook keeps these summaries only, never the input,
// prompt or message whole.
const (
	ToolInputMax = 80  // runes of a tool input's summary
	MessageMax   = 160 // runes of a question or last message
)

// EnvContent is the variable that turns content off: "off" keeps hooks
// from recording it and surfaces from showing it (for screen-sharing).
const EnvContent = "LANES_CONTENT"

// summaryKeys are the tool input fields that say what a call does, most
// telling first: a shell command, a file, a pattern, a place, a query, a
// description (a subagent's task). A prompt is never one of them.
var summaryKeys = []string{"command", "cmd", "file_path", "filePath", "absolute_path", "notebook_path",
	"pattern", "path", "dir_path", "url", "query", "description", "title"}

// ToolInputKeys are the fields of a tool's input lanes reads: those
// ToolSummary takes a summary from, and the questions AskQuestion reads.
// (The OpenCode plugin forwards only these.)
func ToolInputKeys() []string { return append(slices.Clone(summaryKeys), "questions") }

// ToolSummary is the one field of a tool call's input (a JSON object) that
// says what the call does, as one line of at most ToolInputMax runes; ""
// when the input has none.
func ToolSummary(input []byte) string {
	if _, v := ToolField(input); v != "" {
		return Summary(v, ToolInputMax)
	}
	return ""
}

// ToolField is that field of a tool call's input whole: its key and its
// value as the agent runs it (an argv joined, a shell's -c script alone);
// "" when the input has none.
func ToolField(input []byte) (key, value string) {
	var obj map[string]json.RawMessage
	if len(input) == 0 || json.Unmarshal(input, &obj) != nil {
		return "", ""
	}
	for _, k := range summaryKeys {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && strings.TrimSpace(s) != "" {
			return k, s
		}
		var argv []string // Codex's shell command is an argv
		if json.Unmarshal(raw, &argv) == nil && len(argv) > 0 {
			if n := len(argv); n >= 3 && (argv[n-2] == "-lc" || argv[n-2] == "-c") {
				argv = argv[n-1:] // bash -lc SCRIPT: the script is what runs
			}
			return k, strings.Join(argv, " ")
		}
	}
	return "", ""
}

// AskQuestion is the first question of an asking tool's input
// ({"questions": [{"question": …}]}: Claude Code's AskUserQuestion,
// Codex's request_user_input, Gemini's ask_user, OpenCode's question), at
// most MessageMax runes; "" when the input asks none.
func AskQuestion(input []byte) string {
	var in struct {
		Questions []struct {
			Question string `json:"question"`
		} `json:"questions"`
	}
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, q := range in.Questions {
		if s := Summary(q.Question, MessageMax); s != "" {
			return s
		}
	}
	return ""
}

// markdown is the markup agents write their messages in that reads as
// noise on one line: strong and code marks.
var markdown = strings.NewReplacer("**", "", "__", "", "`", "")

// MessageSummary is the start of an assistant message as a card shows it:
// one line of at most MessageMax runes, without heading marks, list
// bullets, strong or code marks.
func MessageSummary(s string) string {
	lines := strings.Split(markdown.Replace(s), "\n")
	for i, l := range lines {
		l = strings.TrimLeft(strings.TrimSpace(l), "#")
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
			l = t
		}
		lines[i] = l
	}
	return Summary(strings.Join(lines, "\n"), MessageMax)
}

// Summary is s as one line of at most n runes: white space (newlines
// included) collapsed to single spaces, terminal control removed, and an
// ellipsis where it was cut. It reads at most summaryWindow(n) bytes of s:
// another host's 32 MiB answer costs what a short one does.
func Summary(s string, n int) string {
	cut := false
	if w := summaryWindow(n); len(s) > w {
		s, cut = s[:w], true
	}
	// Newlines and tabs become spaces first (CleanText would drop them
	// and glue words), then control goes, then runs of space collapse.
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(CleanText(s)), " ")
	if k := utf8.RuneCountInString(s); k <= n && !cut {
		return s
	} else if k < n { // cut, with room left: say so
		return s + "…"
	}
	i, k := 0, 0
	for i = range s {
		if k == n-1 {
			break
		}
		k++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// summaryWindow is how much of a text Summary reads for n runes: room for
// n wide runes, and for the spaces and control between them.
func summaryWindow(n int) int { return 64*n + 4096 }

// Say is which content a session's card shows.
type Say uint8

const (
	SayNothing    Say = iota
	SayTool           // working: the current tool and its input
	SayAsk            // waiting on a question: its words, else the tool asking it
	SayPermission     // waiting on a permission: the tool and its input
	SayMessage        // idle: the start of the last assistant message
)

// Says is what a card says about the session (docs/design.md §8): the
// current tool while working, the question (or the tool asking
// permission) while the agent waits on its human, the start of the last
// message while idle; nothing for a session that ended or whose hooks
// said none of it.
func Says(r *Record) (Say, string) {
	if !r.Live() || !r.Runtime.UnreachableSince.IsZero() {
		return SayNothing, ""
	}
	a := &r.Activity
	tool, input := a.ToolNow()
	tool = toolName(r.Agent, tool)
	switch a.Known() {
	case ActivityActive:
		if t := ToolLine(tool, input); t != "" {
			return SayTool, t
		}
	case ActivityBlocked, ActivityWaitingInput:
		kind := SayPermission
		if AsksQuestion(r) {
			kind = SayAsk
		}
		if a.Question != "" {
			return kind, a.Question
		}
		if t := ToolLine(tool, input); t != "" {
			return kind, t
		}
	case ActivityIdle:
		if a.LastMessage != "" {
			return SayMessage, a.LastMessage
		}
	}
	return SayNothing, ""
}

// IsAskTool reports whether tool is the one agent a asks its human a
// question with (its Reading's AskTool). Such a dialog takes a choice or
// words, never yes or no, and some reach lanes as a permission (Claude
// Code's PermissionRequest for AskUserQuestion, Gemini's ToolPermission
// for ask_user).
func IsAskTool(a Agent, tool string) bool {
	r, ok := ReadingOf(a)
	return ok && r.AskTool != "" && tool == r.AskTool
}

// AsksQuestion reports whether the session waits on a question (a choice
// or words) rather than a permission (yes or no): the one rule the card,
// the notification and the board's answer keys follow.
func AsksQuestion(r *Record) bool {
	a := &r.Activity
	return a.State == ActivityWaitingInput || a.Question != "" || IsAskTool(r.Agent, a.Tool)
}

// ToolNow is the tool call the agent runs or asks about now, with its
// input's summary: none once its turn is over (the stored tool is then
// the last one, not a current one).
func (a *ActivityFacts) ToolNow() (tool, input string) {
	switch a.Known() {
	case ActivityActive, ActivityBlocked, ActivityWaitingInput:
		return a.Tool, a.ToolInput
	}
	return "", ""
}

// ToolLine is "Tool: input", or the tool or input alone.
func ToolLine(tool, input string) string {
	switch {
	case tool == "":
		return input
	case input == "":
		return tool
	}
	return tool + ": " + input
}

// DetailSep parts a transition's event from what it asked ("PermissionRequest
// · Bash: rm -rf build"); DetailEvent is the event alone, for a surface
// that shows no content.
const DetailSep = " · "

// DetailEvent is a transition's detail without the content after DetailSep.
func DetailEvent(detail string) string {
	event, _, _ := strings.Cut(detail, DetailSep)
	return event
}

// Off reports whether a switch variable (LANES_CONTENT, LANES_NOTIFY) says
// off: "off", "0", "false" or "no", in any case. A value meant to hide
// what agents do on a shared screen must not be missed for its spelling.
func Off(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}
