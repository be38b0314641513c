package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// realDir is where --record writes, relative to the repo root.
const realDir = "testdata/real/harness"

// recordFixtures writes testdata/real/harness/<agent>/<scenario>/: the tap's raw
// payloads, the session's spool, and the screens captured at named steps.
func (r *run) recordFixtures(scenario, id string) error {
	dir := filepath.Join(realDir, r.a.name, scenario)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string]string{"spool.jsonl": strings.Join(r.spoolLines(id), "\n") + "\n"}
	if b, err := os.ReadFile(filepath.Join(r.w.Root, "tap.jsonl")); err == nil {
		files["payloads.jsonl"] = string(b)
	}
	for step, screen := range r.screens {
		files[step+".screen"] = screen
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("recording %s: %w", name, err)
		}
	}
	return nil
}

func writeReadme(vs [][2]string) error {
	var b strings.Builder
	b.WriteString(`# Recorded real-agent fixtures

Written by ` + "`scripts/agents --record`" + ` (program: scripts/internal/agents), which runs each real
agent under lanes on a private tmux server with a private HOME, against the scripted model server
(scripts/internal/modelserver), with no network. Do not edit by hand: regenerate.

Agents (pinned in scripts/internal/agents/package.json):

`)
	for _, v := range vs {
		fmt.Fprintf(&b, "- %s %s\n", v[0], v[1])
	}
	b.WriteString(`
Layout: ` + "`<agent>/<scenario>/`" + ` with
- ` + "`payloads.jsonl`" + `: the raw hook payloads the agent sent, one ` + "`{\"event\": …, \"payload\": …}`" + ` per line, in order,
  taken by a tap hook the harness adds to the agent's config in the private HOME (OpenCode: a tap plugin
  that logs every bus event and tool hook). The payload is as the agent gave it, whitespace aside.
- ` + "`spool.jsonl`" + `: the spool lines ` + "`lanes hook`" + ` wrote for the session.
- ` + "`<step>.screen`" + `: ` + "`tmux capture-pane -p -J`" + ` of the agent's pane at a named step (ready, dialog,
  running, idle, rejected, busy, interrupted, failed, question, subagent, compacted).

Regenerate everything: ` + "`scripts/agents --record`" + `; one agent or scenario:
` + "`scripts/agents --record --agent claude --run approve`" + `. The harness needs node and npm; it installs
the pinned agents into ~/.cache/lanes/agents/<hash> (or ` + "`--cache DIR`" + `) on first use.
`)
	return os.WriteFile(filepath.Join(realDir, "README.md"), []byte(b.String()), 0o644)
}
