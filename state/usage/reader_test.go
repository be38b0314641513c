package usage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanes/state"
)

var now = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

// claudeLine is an assistant message's line in Claude Code's shape
// (testdata/real/usage/claude), with only what usage reads of it.
func claudeLine(id string, in, out int64) string {
	return fmt.Sprintf(`{"type":"assistant","timestamp":"2026-12-04T11:00:00Z","message":{"id":%q,"role":"assistant","usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":%d}}}`+"\n", id, in, out)
}

// rig is a session whose agent's record is a file of the test's.
type rig struct {
	t    *testing.T
	path string
	rec  *state.Record
	rd   *Reader
}

func newRig(t *testing.T) *rig {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	r := &state.Record{ID: "abcd1234", Agent: state.AgentClaude}
	r.Usage.Follow(path)
	rd := NewReader()
	rd.every = 0 // every cycle: the tests' clock stands still
	return &rig{t: t, path: path, rec: r, rd: rd}
}

func (g *rig) write(s string) {
	g.t.Helper()
	f, err := os.OpenFile(g.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		g.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		g.t.Fatal(err)
	}
}

// cycle reads as a cycle does and takes the read; false when there was
// nothing to take.
func (g *rig) cycle() bool {
	reads := g.rd.Read([]*state.Record{g.rec}, now)
	rd, ok := reads[g.rec.ID]
	return ok && rd.Apply(g.rec)
}

func (g *rig) want(in, out int64) {
	g.t.Helper()
	if got := g.rec.Usage.Tokens; got.In != in || got.Out != out {
		g.t.Fatalf("tokens %+v, want in %d out %d", got, in, out)
	}
}

// Only what the record gained is read: a line not yet whole waits for
// its end, and a read with nothing new takes nothing.
func TestReaderReadsWhatWasAppended(t *testing.T) {
	g := newRig(t)
	if g.cycle() {
		t.Fatal("a record not written yet was read")
	}
	g.write(claudeLine("m1", 10, 5) + claudeLine("m1", 10, 5) + claudeLine("m2", 20, 3))
	g.cycle()
	g.want(30, 8)
	half := claudeLine("m3", 100, 1)
	g.write(claudeLine("m4", 1, 1) + half[:20])
	g.cycle()
	g.want(31, 9)
	if fi, _ := os.Stat(g.path); g.rec.Usage.Src.Offset != fi.Size()-20 {
		t.Fatalf("offset %d, want the half line's start %d", g.rec.Usage.Src.Offset, fi.Size()-20)
	}
	if g.cycle() {
		t.Fatal("a read with nothing new took something")
	}
	g.write(half[20:])
	g.cycle()
	g.want(131, 10)
}

// Another file at the path (rotated), or the file cut short, is a record
// of its own, read from its start: the session's total goes on.
func TestReaderRotatedOrTruncated(t *testing.T) {
	g := newRig(t)
	g.write(claudeLine("m1", 10, 1))
	g.cycle()
	next := g.path + ".new"
	if err := os.WriteFile(next, []byte(claudeLine("n1", 5, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, g.path); err != nil {
		t.Fatal(err)
	}
	g.cycle()
	g.want(15, 2)
	if err := os.Truncate(g.path, 0); err != nil {
		t.Fatal(err)
	}
	g.write(claudeLine("t1", 1, 1))
	g.cycle()
	g.want(16, 3)
	if err := os.Remove(g.path); err != nil {
		t.Fatal(err)
	}
	if g.cycle() {
		t.Fatal("a deleted record changed the numbers")
	}
	g.want(16, 3)
}

// What lanes must not read is passed over, each quickly and the numbers
// left as they are: a symlink (to anywhere), a FIFO (its open must not
// block), a device, another user's file.
func TestReaderRefusesWhatItMustNotRead(t *testing.T) {
	g := newRig(t)
	g.write(claudeLine("m1", 10, 1))
	g.cycle()
	real := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if err := os.WriteFile(real, []byte(claudeLine("x", 1000, 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	theirs := "/etc/passwd" // another user's, unless the tests run as root
	if os.Getuid() == 0 {
		theirs = filepath.Join(t.TempDir(), "theirs.jsonl")
		if err := os.WriteFile(theirs, []byte(claudeLine("y", 1000, 1000)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	for name, swap := range map[string]func() error{
		"a symlink":    func() error { os.Remove(g.path); return os.Symlink(real, g.path) },
		"a FIFO":       func() error { os.Remove(g.path); return syscall.Mkfifo(g.path, 0o600) },
		"a device":     func() error { os.Remove(g.path); return os.Symlink("/dev/zero", g.path) },
		"their file":   func() error { os.Remove(g.path); return os.Link(theirs, g.path) },
		"named as one": func() error { g.rec.Usage.Src.Path = fifo; return nil },
	} {
		if err := swap(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		start := time.Now()
		if g.cycle() {
			t.Errorf("%s was read", name)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s held the read %v", name, d)
		}
		g.want(10, 1)
		g.rec.Usage.Src.Path = g.path
	}
}

// A line longer than LineMax (a message holding a big file) is passed
// over without being held; the lines after it count.
func TestReaderPassesOverAHugeLine(t *testing.T) {
	g := newRig(t)
	huge := `{"type":"assistant","message":{"id":"big","usage":{"input_tokens":999,"output_tokens":999}},"pad":"` + strings.Repeat("x", LineMax) + "\"}\n"
	g.write(claudeLine("m1", 1, 1) + huge + claudeLine("m2", 2, 2))
	for g.cycle() { // a cycle's worth at a time
	}
	g.want(3, 3)
	// Longer than a read holds: passed over over several reads, and the
	// lines after it still count (the 28th hostile re-run: it stopped the
	// session's usage for good).
	longer := `{"type":"assistant","message":{"id":"big2","usage":{"input_tokens":999}},"pad":"` + strings.Repeat("y", CycleBytes+LineMax) + "\"}\n"
	g.write(longer + claudeLine("m3", 4, 4))
	for g.cycle() {
	}
	g.want(7, 7)
	if fi, _ := os.Stat(g.path); g.rec.Usage.Src.Offset != fi.Size() {
		t.Fatalf("offset %d of %d: the huge line was not passed over", g.rec.Usage.Src.Offset, fi.Size())
	}
}

// A record bigger than a cycle reads is read over several, from where
// the last stopped, each line once.
func TestReaderReadsALongRecordInChunks(t *testing.T) {
	g := newRig(t)
	pad := strings.Repeat("p", 64<<10)
	var b strings.Builder
	n := 0
	for b.Len() < CycleBytes+CycleBytes/2 {
		b.WriteString(`{"type":"user","pad":"` + pad + "\"}\n")
		b.WriteString(claudeLine(fmt.Sprint("m", n), 1, 1))
		n++
	}
	g.write(b.String())
	g.cycle()
	if off := g.rec.Usage.Src.Offset; off == 0 || off > CycleBytes+int64(len(pad))+200 {
		t.Fatalf("the first read took %d bytes, more than a cycle's %d", off, CycleBytes)
	}
	for g.cycle() {
	}
	g.want(int64(n), int64(n))
}

// Two processes read the same lines: the first to take its read wins, the
// other's is refused, and nothing counts twice.
func TestReaderTakesOneOfTwoReads(t *testing.T) {
	g := newRig(t)
	g.write(claudeLine("m1", 10, 1))
	a := g.rd.Read([]*state.Record{g.rec}, now)[g.rec.ID]
	b := NewReader().Read([]*state.Record{g.rec}, now)[g.rec.ID] // another process's first read
	if !a.Apply(g.rec) || b.Apply(g.rec) {
		t.Fatal("both reads were taken, or neither")
	}
	g.want(10, 1)
}

// A session ended long ago, or of an agent lanes reads nothing of, is not
// read.
func TestReaderSkips(t *testing.T) {
	g := newRig(t)
	g.write(claudeLine("m1", 10, 1))
	g.rec.Runtime.Terminated, g.rec.Runtime.TerminatedAt = true, now.Add(-EndedFor-time.Second)
	if g.cycle() {
		t.Fatal("a session ended long ago was read")
	}
	g.rec.Runtime.Terminated = false
	g.rec.Agent = state.AgentShell
	if g.cycle() {
		t.Fatal("a shell's record was read")
	}
}

// What the Reader remembers of removed sessions goes once it outnumbers
// the sessions left.
func TestReaderForgetsRemovedSessions(t *testing.T) {
	rd := NewReader()
	var recs []*state.Record
	for i := range 200 {
		r := &state.Record{ID: fmt.Sprintf("r%07d", i), Agent: state.AgentClaude}
		r.Usage.Follow(filepath.Join(t.TempDir(), "none.jsonl"))
		recs = append(recs, r)
	}
	rd.Read(recs, now)
	rd.Read(recs[:3], now)
	if len(rd.next) != 3 {
		t.Fatalf("%d records remembered, want the 3 left", len(rd.next))
	}
}

// A hook naming an earlier record again (A, B, A) goes on where A was:
// nothing counts twice.
func TestReaderFlipFlop(t *testing.T) {
	g := newRig(t)
	a := g.path
	g.write(claudeLine("a1", 100, 1))
	g.cycle()
	b := filepath.Join(filepath.Dir(a), "b.jsonl")
	if err := os.WriteFile(b, []byte(claudeLine("b1", 5, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		g.rec.Usage.Follow(b)
		g.cycle()
		g.rec.Usage.Follow(a)
		g.cycle()
	}
	g.want(105, 2)
}
