// Package modelserver is a scripted model server for driving the real coding
// agents (Claude Code, Codex, Gemini CLI, OpenCode) with no network. It speaks
// just enough of the Anthropic Messages, OpenAI Responses, OpenAI Chat
// Completions and Gemini streaming APIs for those agents, and answers each
// session's turns from a scenario: a script of text, tool calls, API errors and
// pauses. docs/real-agents.md records what the agents send and accept.
//
// A session is chosen by the base URL: an agent pointed at BASE/s/KEY gets the
// scenario assigned to KEY. Each main request (a streamed turn that offers
// tools) consumes the next turn of the script; side requests (titles,
// summaries, token counts, non-streamed calls) get a short text and never
// consume. A main request whose body equals the previous main request's is a
// retry and gets the same turn again, so an agent retrying a 529 keeps seeing
// the error instead of eating the rest of the script.
package modelserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Scenario is a named script of turns; turn i answers the i-th main request,
// but for a turn that opens with a Match step: it answers only a request
// whose body holds that text, and the requests before such a one skip it
// (a subagent and its parent ask side by side, in either order).
type Scenario struct {
	Name  string `json:"name"`
	Turns []Turn `json:"turns"`
	// Limits are the rate-limit windows its Responses answers report
	// (nil: DefaultLimits).
	Limits *Limits `json:"limits,omitempty"`
}

// Turn is one model response, made of steps streamed in order.
type Turn []Step

// Step is one part of a turn. Exactly one of Text, Tool, Error, Limit,
// DelayMS or Match is set.
type Step struct {
	// Match, as a turn's first step, keeps the turn for the first main
	// request whose body contains it (the parent's, holding a
	// tool_result, say, not its subagent's first).
	Match string `json:"match,omitempty"`
	// Text is streamed in word-sized chunks, ChunkMS apart (a slow stream
	// lets a harness interrupt mid-turn).
	Text    string `json:"text,omitempty"`
	ChunkMS int    `json:"chunk_ms,omitempty"`
	// Tool is a tool call; the turn then ends asking for its result.
	Tool *ToolCall `json:"tool,omitempty"`
	// Error answers the request with this HTTP status (529, 429, 500) in the
	// API's error shape. It must be the turn's only step besides delays
	// before it: once a stream has started its status cannot change.
	Error int `json:"error,omitempty"`
	// Recover, with Error, is how many of the agent's retries get the
	// error too: the next retry is answered by the following turn, as an
	// API that came back. 0: every retry gets the error.
	Recover int `json:"recover,omitempty"`
	// Limit answers 429 in the API's shape for an account whose usage
	// limit is reached, resetting Limit seconds from now (where the API
	// says when); like Error, the turn's last step.
	Limit int `json:"limit,omitempty"`
	// DelayMS pauses this long. Inside a stream the response has already
	// started, so the agent shows it is working.
	DelayMS int `json:"delay_ms,omitempty"`
}

// ToolCall is a tool call given once and rendered per API. Shell is the
// neutral form: each API gets its agent's shell tool (see shellTools). Name
// and Input are the escape hatch: that tool name and input, sent as they are.
type ToolCall struct {
	Shell string `json:"shell,omitempty"`
	// Escalated asks Codex to run outside its sandbox, the only way to make
	// Codex show its approval dialog; the other agents ignore it.
	Escalated bool            `json:"escalated,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	// Fill is a regular expression with one group, read in the request
	// being answered: every "$FILL" in Input becomes the group's text, as
	// a JSON string's inside (what only the agent knows, such as the plan
	// file Claude Code names in plan mode).
	Fill string `json:"fill,omitempty"`
}

// Text returns a step that streams s at full speed.
func Text(s string) Step { return Step{Text: s} }

// SlowText returns a step that streams s with gap between chunks.
func SlowText(s string, gap time.Duration) Step {
	return Step{Text: s, ChunkMS: int(gap / time.Millisecond)}
}

// Shell returns a step calling the agent's shell tool with cmd.
func Shell(cmd string) Step { return Step{Tool: &ToolCall{Shell: cmd}} }

// Fail returns a step answering with HTTP status code.
func Fail(code int) Step { return Step{Error: code} }

// FailThenRecover returns a step answering code to a request and its
// first retries, the retry after them getting the next turn.
func FailThenRecover(code, retries int) Step { return Step{Error: code, Recover: retries} }

// UsageLimit returns a step answering that the usage limit is reached
// until resets from now.
func UsageLimit(resets time.Duration) Step { return Step{Limit: int(resets / time.Second)} }

// Matching returns a step keeping its turn for a request containing s.
func Matching(s string) Step { return Step{Match: s} }

// Pause returns a step that waits d.
func Pause(d time.Duration) Step { return Step{DelayMS: int(d / time.Millisecond)} }

// ErrBadScenario is wrapped by every scenario validation error.
var ErrBadScenario = errors.New("bad scenario")

// Validate reports the first step that cannot be served.
func (sc Scenario) Validate() error {
	for i, turn := range sc.Turns {
		if len(turn) == 0 {
			return fmt.Errorf("%w %q: turn %d has no steps", ErrBadScenario, sc.Name, i+1)
		}
		for j, st := range turn {
			err := st.validate()
			switch {
			case err != nil:
			case (st.Error != 0 || st.Limit != 0) && !onlyDelaysBefore(turn, j):
				err = errors.New("an error must be the last step, after nothing but delays")
			case st.Match != "" && (j != 0 || len(turn) == 1):
				err = errors.New("a match must be the first step of a turn with more")
			}
			if err != nil {
				return fmt.Errorf("%w %q: turn %d step %d: %v", ErrBadScenario, sc.Name, i+1, j+1, err)
			}
		}
	}
	return nil
}

func (st Step) validate() error {
	kinds := 0
	for _, set := range []bool{st.Text != "", st.Tool != nil, st.Error != 0, st.Limit != 0, st.DelayMS != 0, st.Match != ""} {
		if set {
			kinds++
		}
	}
	switch {
	case kinds != 1:
		return errors.New("set exactly one of text, tool, error, limit, delay_ms, match")
	case st.ChunkMS < 0 || st.DelayMS < 0 || st.Limit < 0 || st.Recover < 0:
		return errors.New("chunk_ms, delay_ms, limit and recover cannot be negative")
	case st.Recover != 0 && st.Error == 0:
		return errors.New("recover belongs to an error step")
	case st.ChunkMS != 0 && st.Text == "":
		return errors.New("chunk_ms belongs to a text step")
	case st.Error != 0 && (st.Error < 400 || st.Error > 599):
		return fmt.Errorf("error %d is not an HTTP error status", st.Error)
	case st.Tool != nil && (st.Tool.Shell == "") == (st.Tool.Name == ""):
		return errors.New("a tool sets exactly one of shell or name")
	case st.Tool != nil && len(st.Tool.Input) > 0 && !json.Valid(st.Tool.Input):
		return errors.New("tool input is not valid JSON")
	case st.Tool != nil && st.Tool.Fill != "":
		if re, err := regexp.Compile(st.Tool.Fill); err != nil || re.NumSubexp() != 1 {
			return fmt.Errorf("fill %q is not a regular expression with one group", st.Tool.Fill)
		}
	}
	return nil
}

func onlyDelaysBefore(turn Turn, j int) bool {
	for _, st := range turn[:j] {
		if st.DelayMS == 0 && st.Match == "" {
			return false
		}
	}
	return j == len(turn)-1
}

// LoadFile reads a JSON array of scenarios and validates each.
func LoadFile(path string) ([]Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading scenarios: %w", err)
	}
	var scs []Scenario
	if err := json.Unmarshal(data, &scs); err != nil {
		return nil, fmt.Errorf("parsing scenarios %s (want a JSON array of {name, turns}): %w", path, err)
	}
	for _, sc := range scs {
		if sc.Name == "" {
			return nil, fmt.Errorf("%w in %s: a scenario has no name", ErrBadScenario, path)
		}
		if err := sc.Validate(); err != nil {
			return nil, err
		}
	}
	return scs, nil
}

// filled is turn with each tool's Fill read in body; a fill that finds
// nothing leaves "$FILL" as it is, for the agent to show.
func (t Turn) filled(body []byte) Turn {
	out := slices.Clone(t)
	for i, st := range out {
		if st.Tool == nil || st.Tool.Fill == "" {
			continue
		}
		m := regexp.MustCompile(st.Tool.Fill).FindSubmatch(body)
		if m == nil {
			continue
		}
		call := *st.Tool
		call.Input = json.RawMessage(strings.ReplaceAll(string(call.Input), "$FILL", string(m[1])))
		out[i].Tool = &call
	}
	return out
}
