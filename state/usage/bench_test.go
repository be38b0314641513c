package usage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// BenchmarkUsage100 is what reading usage adds to a cycle at 100 working
// sessions (scripts/bench's row, issue 36: ≤ 1 ms): a cycle a second, and
// every other second each session's transcript grows by what the real
// Claude Code writes for one model request (its recorded tokens run: the
// request, the assistant's message, the tool's result, a system line;
// about 4 KB: a model answers a request of a session at work in more than
// 2 s), and each cycle reads and takes what those due grew by.
func BenchmarkUsage100(b *testing.B) {
	real, err := os.ReadFile(filepath.Join(statetest.RealDir, "usage", "claude", "tokens.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range bytes.SplitAfter(bytes.TrimSuffix(real, []byte("\n")), []byte("\n")) {
		for _, t := range []string{"api-request", "assistant", "user", "system"} {
			if bytes.Contains(l, []byte(`"type":"`+t+`"`)) {
				lines = append(lines, l)
				break
			}
		}
	}
	dir := b.TempDir()
	var recs []*state.Record
	var files []*os.File
	for i := range 100 {
		path := filepath.Join(dir, fmt.Sprint(i, ".jsonl"))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		r := &state.Record{ID: fmt.Sprintf("s%07d", i), Agent: state.AgentClaude}
		r.Usage.Follow(path)
		recs, files = append(recs, r), append(files, f)
	}
	rd, next, at := NewReader(), 0, now
	for b.Loop() {
		at = at.Add(time.Second)
		b.StopTimer()
		for i, f := range files {
			if (i+int(at.Unix()))%2 == 0 {
				continue // half the sessions each second
			}
			for k := range 4 {
				if _, err := f.Write(lines[(next+k)%len(lines)]); err != nil {
					b.Fatal(err)
				}
			}
		}
		next += 4
		b.StartTimer()
		for id, read := range rd.Read(recs, at) {
			for _, r := range recs {
				if r.ID == id {
					read.Apply(r)
				}
			}
		}
	}
}
