package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
)

// Spool rotation rules (docs/design.md §6).
const (
	RotateBytes = 1 << 20
	RotateGrace = 60 * time.Second
	// maxReadPerFile bounds one cycle's read of one file, so a flood cannot
	// stall a cycle; the rest waits for the next one.
	maxReadPerFile = 8 << 20
	// readChunk is one read's size. Over MaxLineBytes, so a chunk with no
	// newline in it holds part of a line too long to apply.
	readChunk = 1 << 20
)

// parseSpoolName splits <id>.jsonl and rotated <id>.<unixnano>.jsonl into
// the session id and the rotation stamp; ok is false for any other name.
func parseSpoolName(name string) (id, rotated string, ok bool) {
	base, found := strings.CutSuffix(name, ".jsonl")
	if !found || len(base) < 8 || !state.ValidID(base[:8]) {
		return "", "", false
	}
	id, rest := base[:8], base[8:]
	if rest == "" {
		return id, "", true
	}
	stamp, found := strings.CutPrefix(rest, ".")
	if !found || len(stamp) == 0 || len(stamp) > 20 || strings.Trim(stamp, "0123456789") != "" {
		return "", "", false
	}
	return id, stamp, true
}

// SpoolDir is where hooks append their lines.
func SpoolDir(stateDir string) string { return filepath.Join(stateDir, "spool") }

// SpoolPath is the active spool file of a session.
func SpoolPath(stateDir, id string) string { return filepath.Join(SpoolDir(stateDir), id+".jsonl") }

// spoolOffset is what the store keeps per spool file identity.
type spoolOffset struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	// Skip: Offset is inside a line already counted too long; ingest
	// discards up to its newline.
	Skip bool `json:"skip,omitempty"`
}

// ingest drains every spool file into the records of this transaction:
// events are applied in the same transaction that advances the offsets, so
// a crash anywhere applies each line exactly once.
func (c *cycleTx) ingest() error {
	dir := SpoolDir(c.stateDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading spool dir: %w", err)
	}
	seen := map[string]bool{}
	for _, de := range entries {
		id, rotated, ok := parseSpoolName(de.Name())
		if !ok || de.Type()&os.ModeSymlink != 0 || !de.Type().IsRegular() {
			seen[c.countBadFile(de.Name())] = true
			continue
		}
		key, err := c.ingestFile(filepath.Join(dir, de.Name()), id, rotated)
		if err != nil {
			return err
		}
		if key != "" {
			seen[key] = true
		}
	}
	// Forget offsets of files that are gone.
	b := c.tx.bucket(bucketSpool)
	var stale [][]byte
	_ = b.ForEach(func(k, _ []byte) error {
		if !seen[string(k)] {
			stale = append(stale, bytes.Clone(k))
		}
		return nil
	})
	for _, k := range stale {
		c.tx.wrote = true
		_ = b.Delete(k)
	}
	return nil
}

// countBadFile counts a refused spool file once, however many cycles see it,
// and returns the key that remembers it (kept while the file stays).
func (c *cycleTx) countBadFile(name string) string {
	b := c.tx.bucket(bucketSpool)
	key := "bad:" + name
	if b.Get([]byte(key)) == nil {
		c.tx.wrote = true
		_ = b.Put([]byte(key), []byte("1"))
		_ = c.tx.Count(state.CounterBadSpoolFile, 1)
	}
	return key
}

// spoolKey is a spool file's identity: device and inode, so a renamed
// (rotated) file keeps its offset.
func spoolKey(st *syscall.Stat_t) []byte { return fmt.Appendf(nil, "%d:%d", st.Dev, st.Ino) }

// loadOffset is what is stored for the file with key ("" and 0 when none).
func loadOffset(b *bolt.Bucket, key []byte) spoolOffset {
	var off spoolOffset
	if b != nil {
		if v := b.Get(key); v != nil {
			_ = json.Unmarshal(v, &off)
		}
	}
	return off
}

// ingestFile reads one spool file from its stored offset and returns its
// identity key.
func (c *cycleTx) ingestFile(path, id, rotated string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
		return c.countBadFile(filepath.Base(path)), nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("stat %s: %w", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return c.countBadFile(filepath.Base(path)), nil
	}
	key := spoolKey(st)
	b := c.tx.bucket(bucketSpool)
	off := loadOffset(b, key)
	was := off
	if fi.Size() < off.Offset { // truncated or a reused inode: start over
		off.Offset, off.Skip = 0, false
	}
	var buf []byte
	for read := int64(0); off.Offset < fi.Size() && read < maxReadPerFile; {
		if buf == nil {
			buf = make([]byte, min(fi.Size()-off.Offset, readChunk))
		}
		n, err := f.ReadAt(buf[:min(int64(len(buf)), fi.Size()-off.Offset)], off.Offset)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("reading %s: %w", path, err)
		}
		used := c.applyLines(id, buf[:n], &off.Skip)
		if used == 0 {
			break // a partial line waits for its end
		}
		off.Offset += used
		read += used
	}
	off.Name = filepath.Base(path)
	drained := off.Offset == fi.Size()
	switch {
	case rotated == "" && drained && fi.Size() > RotateBytes:
		// Atomic rename: hooks then create a fresh file; one that opened this
		// file just before still lands here and is drained before deletion.
		name := fmt.Sprintf("%s.%d.jsonl", id, c.now.UnixNano())
		if err := os.Rename(path, filepath.Join(filepath.Dir(path), name)); err == nil {
			off.Name = name
		}
	case rotated != "" && drained:
		ns, _ := strconv.ParseInt(rotated, 10, 64)
		if c.now.Sub(time.Unix(0, ns)) > RotateGrace {
			if err := os.Remove(path); err == nil {
				return "", nil
			}
		}
	}
	if off == was {
		return string(key), nil
	}
	c.tx.wrote = true
	v, _ := json.Marshal(off)
	return string(key), b.Put(key, v)
}

// applyLines applies every whole line at the front of buf and returns how
// many bytes it consumed; the rest waits for the next read.
func (c *cycleTx) applyLines(fileID string, buf []byte, skip *bool) int64 {
	return int64(scanLines(buf, skip, func(raw []byte, torn bool) { c.applyLine(fileID, raw, torn) }))
}

// scanLines hands each line at the front of buf to apply and returns how
// many bytes it consumed. One rule frames lines, whatever a read happened
// to see (docs/design.md §6): a line ends at its newline or where the next
// line starts, at `{"v":`, which a JSON string cannot hold unescaped, so a
// fragment a full disk left without its newline (torn) ends where the whole
// line glued behind it starts. A line with no end in sight waits, unless it
// is already over MaxLineBytes: it is then handed over now (and dropped as
// too long) and skip is set, so the reads that follow discard the rest of
// it up to its end — however many reads away that is — without holding it
// in memory. Blank lines (a hook's own repair of a short write) are skipped.
func scanLines(buf []byte, skip *bool, apply func(raw []byte, torn bool)) int {
	used := 0
	for len(buf) > 0 {
		if *skip && bytes.HasPrefix(buf, state.LineStart) {
			*skip = false // the long line was cut where this one starts
		}
		n, torn := lineEnd(buf)
		if n == 0 { // no end in sight
			seen := len(buf) - startPrefix(buf)
			if !*skip && seen > state.MaxLineBytes {
				apply(buf[:seen], false) // too long, wherever it ends
				*skip = true
			}
			if *skip {
				used += seen
			}
			return used
		}
		raw := buf[:n]
		if !torn {
			raw = raw[:n-1]
		}
		buf, used = buf[n:], used+n
		switch {
		case *skip:
			*skip = false // the end of the long line
		case len(bytes.TrimSpace(raw)) > 0:
			apply(raw, torn)
		}
	}
	return used
}

// lineEnd is how many bytes the first line of buf takes (its newline
// included) and whether it ends where the next line starts rather than at
// a newline; 0 when its end is not in buf yet. It reads each byte once.
func lineEnd(buf []byte) (n int, torn bool) {
	for i := 0; ; i++ {
		j := bytes.IndexAny(buf[i:], "\n{")
		if j < 0 {
			return 0, false
		}
		i += j
		if buf[i] == '\n' {
			return i + 1, false
		}
		if i > 0 && bytes.HasPrefix(buf[i:], state.LineStart) {
			return i, true
		}
	}
}

// startPrefix is how many bytes at the end of buf may begin the next
// line's `{"v":`: they wait, so a line start split across reads is found.
func startPrefix(buf []byte) int {
	for k := min(len(state.LineStart)-1, len(buf)); k > 0; k-- {
		if bytes.HasPrefix(state.LineStart, buf[len(buf)-k:]) {
			return k
		}
	}
	return 0
}

// applyLine applies one spool line; torn: it ended where the next line
// starts, so its writer was cut short, and when it does not parse it is a
// fragment (bad_json) — but over the limit it is too long however it ends,
// as when a read saw it before its end.
func (c *cycleTx) applyLine(fileID string, raw []byte, torn bool) {
	r := c.record(fileID)
	l, reason, err := state.ParseLine(raw)
	if torn && reason == state.DropBadUTF8 {
		reason = state.DropBadJSON // cut mid-rune
	}
	if err == nil && l.Session != fileID {
		reason = state.DropUnknownSess
	}
	if reason != "" {
		c.drop(r, reason)
		return
	}
	if r == nil && l.Adopt != nil && l.Agent != "lanes" && l.Agent != "generic" {
		r = c.adopted(l)
	}
	if r == nil {
		c.drop(nil, state.DropUnknownSess)
		return
	}
	e, ok := state.Translate(l)
	if !ok {
		c.drop(r, state.DropUnknownEvent)
		return
	}
	if !c.now.IsZero() && e.At.Sub(c.now) > state.ClockStepTolerance {
		// Stamped ahead of its ingest (a clock that stepped back since, a
		// line another program wrote): as of now, or its card would say
		// 0s for as long as it is ahead.
		e.At = c.now
	}
	tr, reason := state.Apply(r, e)
	if reason != "" {
		c.drop(r, reason)
		return
	}
	r.EventsApplied++
	c.ingested++
	c.note(r, tr)
	if r.Adopted && l.Event == "SessionEnd" {
		// Its conversation is over: the agent exited, or goes on as
		// another conversation (a /clear, a /resume), which its next hook
		// adopts as a session of its own.
		c.note(r, state.Terminate(r, state.Qualified("its conversation ended", l.Reason), "hook", l.At))
	}
}

func (c *cycleTx) drop(r *state.Record, reason string) {
	c.dropped++
	if r == nil {
		_ = c.tx.Count("dropped:"+reason, 1)
		return
	}
	if r.EventsDropped == nil {
		r.EventsDropped = map[string]int{}
	}
	r.EventsDropped[reason]++
	c.dirty[r.ID] = true
}

// AppendLine writes one spool line for a session with a single write, as
// hooks do. It never opens the store.
func AppendLine(stateDir string, l state.Line) error {
	if !state.ValidID(l.Session) {
		return fmt.Errorf("invalid session id %q", l.Session)
	}
	b, err := state.EncodeLine(l)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(SpoolDir(stateDir), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(SpoolPath(stateDir, l.Session),
		os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	werr := writeLine(f, append(b, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// Backlog is, per session id, how many spool bytes wait to be ingested.
func (s *Store) Backlog() (map[string]int64, error) {
	out := map[string]int64{}
	entries, err := os.ReadDir(s.SpoolDir())
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	err = s.View(func(tx *Tx) error {
		b := tx.bucket(bucketSpool)
		for _, de := range entries {
			id, _, ok := parseSpoolName(de.Name())
			info, err := de.Info()
			if !ok || err != nil || !info.Mode().IsRegular() {
				continue
			}
			st, ok := info.Sys().(*syscall.Stat_t)
			if !ok {
				continue
			}
			out[id] += max(info.Size()-loadOffset(b, spoolKey(st)).Offset, 0)
		}
		return nil
	})
	return out, err
}
