package usage

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"

	"lanes/internal/fsafe"
	"lanes/state"
)

const (
	// CycleBytes is the most of one record a cycle reads: a long
	// transcript met for the first time (an adopted session's) is read
	// over as many cycles as it takes, one after the other, from where
	// the last stopped (500 MB in about two minutes, at a few ms each).
	CycleBytes = 4 << 20
	// LineMax is the longest line read whole; a longer one (a message
	// holding a big file) is passed over without being held, uncounted.
	LineMax = 8 << 20
	// EndedFor is how long after its session ended a record is still read:
	// the agent's last lines land after its last hook.
	EndedFor = 2 * time.Minute
	// Every is how often a record is read at most: each at its own pace
	// between Every/2 and Every, so that a hundred sessions at work are
	// not all read in one cycle (scripts/bench: ≤ 1 ms a cycle at 100).
	// The first read of each is at once (`lanes usage` reads once).
	Every = 10 * time.Second
)

// Reader reads, beside a cycle's transaction, what each session's agent
// appended to its records since the last read. A Reader is one process's;
// what was read is the records' (state.UsageSource), so another process
// goes on from there.
type Reader struct {
	uid int
	// seen is each record's file as the last read left it: unchanged, it
	// is not opened again.
	seen map[string]fileSeen
	// every is Every (0: each cycle, for tests), and next when each record
	// is read again.
	every time.Duration
	next  map[string]time.Time
	// skip is where a record's line too long to read goes on, for the
	// read after the one that stopped inside it.
	skip map[string]int64
	// br, long and last are the read's buffers, one for every file: the
	// stream, a line longer than br holds, the last bytes read (known of
	// them in order, counted from where the stream began).
	br    *bufio.Reader
	long  []byte
	last  []byte
	known int64
}

type fileSeen struct {
	path, ident string
	size        int64
	mod         time.Time
	offset      int64
}

// NewReader returns a Reader of the files this process's user owns.
func NewReader() *Reader {
	return &Reader{uid: os.Getuid(), seen: map[string]fileSeen{}, every: Every, next: map[string]time.Time{}, skip: map[string]int64{},
		br: bufio.NewReaderSize(nil, 64<<10), last: make([]byte, 0, 2*state.TailBytes)}
}

// Read is one record's read: the source it started from and the usage it
// came to.
type Read struct {
	From  state.UsageSource
	Usage state.Usage
}

// Apply takes the read into r when r's source is still where the read
// started (no other process read the same lines meanwhile, no hook named
// another record); reports whether r changed.
func (rd Read) Apply(r *state.Record) bool {
	s := r.Usage.Src
	if s.Path != rd.From.Path || s.Offset != rd.From.Offset || s.Ident != rd.From.Ident {
		return false
	}
	r.Usage = rd.Usage
	return true
}

// Read reads the records of recs' sessions that grew, by session id.
func (rd *Reader) Read(recs []*state.Record, now time.Time) map[string]Read {
	rd.forget(recs)
	var out map[string]Read
	for _, r := range recs {
		if r.Usage.Src.Path == "" || r.Runtime.Terminated && now.Sub(r.Runtime.TerminatedAt) > EndedFor {
			continue
		}
		if _, ok := state.ReadingOf(r.Agent); !ok || now.Before(rd.next[r.ID]) {
			continue
		}
		rd.next[r.ID] = now.Add(rd.pace(r.ID))
		u, ok, err := rd.read(r, now)
		if err != nil || !ok {
			continue // unreadable now: the numbers stay as they are
		}
		if out == nil {
			out = map[string]Read{}
		}
		out[r.ID] = Read{From: r.Usage.Src, Usage: u}
	}
	return out
}

// forget lets go of what the Reader remembers of records no longer in
// recs (removed sessions), once there is more of it than of them.
func (rd *Reader) forget(recs []*state.Record) {
	if len(rd.next) <= 2*len(recs)+64 {
		return
	}
	keep := make(map[string]bool, len(recs))
	for _, r := range recs {
		keep[r.ID] = true
	}
	for id := range rd.next {
		if !keep[id] {
			delete(rd.next, id)
			delete(rd.seen, id)
			delete(rd.skip, id)
		}
	}
}

// pace is how long after a read record id is read again: its own share
// of Every, between Every/2 and Every, so that the records read in one
// cycle part ways.
func (rd *Reader) pace(id string) time.Duration {
	if rd.every <= 0 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return rd.every/2 + time.Duration(h.Sum32())%(rd.every/2)
}

var errRefused = errors.New("not a file lanes reads")

// read reads what r's record gained since r.Usage.Src; false when it
// gained nothing.
func (rd *Reader) read(r *state.Record, now time.Time) (state.Usage, bool, error) {
	src := r.Usage.Src
	fi, err := os.Lstat(src.Path)
	if err == nil {
		err = refused(src.Path, fi, rd.uid) // not even opened: opening a device may do something
	}
	if err != nil {
		return state.Usage{}, false, err
	}
	ident := identOf(fi)
	if was, ok := rd.seen[r.ID]; ok && was == (fileSeen{src.Path, ident, fi.Size(), fi.ModTime(), src.Offset}) {
		return state.Usage{}, false, nil
	}
	f, err := open(src.Path, rd.uid)
	if err != nil {
		return state.Usage{}, false, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return state.Usage{}, false, err
	}
	u := r.Usage
	u.Limits, u.Days = append([]state.Limit(nil), u.Limits...), append([]state.DayUsage(nil), u.Days...)
	anew := func() { u.Src = state.UsageSource{Path: src.Path, Ident: identOf(fi)} }
	if identOf(fi) != src.Ident || fi.Size() < src.Offset || !rd.from(f, fi.Size(), src.Offset, src.Tail) {
		// Another file at the path (rotated, replaced), or this one cut
		// short or written anew: a record of its own, read from its start.
		anew()
		rd.from(f, fi.Size(), 0, "")
	}
	skip := u.Src.Offset > 0 && rd.skip[r.ID] == u.Src.Offset
	n, more, skipping, err := rd.scan(skip, func(line []byte) {
		if l, ok := state.ReadUsage(r.Agent, line); ok {
			u.Take(l, now)
		}
	})
	delete(rd.skip, r.ID)
	if skipping { // the rest of a line too long to read, from there on
		rd.skip[r.ID] = u.Src.Offset + n
	}
	if n > 0 {
		u.Src.Offset += n
		u.Src.Tail = rd.tail(f, u.Src.Offset)
	}
	delete(rd.seen, r.ID)
	if more {
		delete(rd.next, r.ID) // the rest at the next cycle
	} else { // read to its end: not opened again until it changes
		rd.seen[r.ID] = fileSeen{src.Path, identOf(fi), fi.Size(), fi.ModTime(), u.Src.Offset}
	}
	if err != nil {
		return state.Usage{}, false, err
	}
	return u, u.Src != r.Usage.Src, nil
}

// from sets the Reader to read f (of size bytes) from offset on, in one
// stream that starts with the state.TailBytes before offset: it reports
// whether they still digest to tail (what was read then is still there).
func (rd *Reader) from(f *os.File, size, offset int64, tail string) bool {
	before := min(offset, state.TailBytes)
	rd.br.Reset(io.NewSectionReader(f, offset-before, min(size-offset, CycleBytes+LineMax)+before))
	rd.last = rd.last[:before]
	rd.known = before
	if _, err := io.ReadFull(rd.br, rd.last); err != nil {
		return false
	}
	return before == 0 || tail == "" || digest(rd.last) == tail // "": not known, the file's identity says
}

// tail is the digest of the state.TailBytes of f before offset (all of
// them when fewer): from the lines just read where they hold them, else
// read again (a line passed over unread was last).
func (rd *Reader) tail(f *os.File, offset int64) string {
	want := min(offset, state.TailBytes)
	if rd.known >= want {
		return digest(rd.last[int64(len(rd.last))-want:])
	}
	b := make([]byte, want)
	if _, err := f.ReadAt(b, offset-want); err != nil {
		return ""
	}
	return digest(b)
}

func digest(b []byte) string {
	sum := fnv.New64a()
	sum.Write(b)
	return strconv.FormatUint(sum.Sum64(), 16)
}

// open opens path for reading if it is a regular file of uid's: never
// through a symlink, and so that a FIFO never blocks.
func open(path string, uid int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = refused(path, fi, uid) // what is open now, whatever the path named before
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// refused says why fi, at path, is no file lanes reads: anything but a
// regular file of uid's.
func refused(path string, fi fs.FileInfo, uid int) error {
	switch {
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: %s is %s", errRefused, path, fi.Mode().Type())
	case fsafe.Owner(fi) != uid:
		return fmt.Errorf("%w: %s is %s's", errRefused, path, fsafe.Who(fsafe.Owner(fi)))
	}
	return nil
}

// identOf names the file fi is: its device and inode.
func identOf(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}

// scan calls line for each whole line the Reader reads, up to CycleBytes
// of them, and returns how many bytes they took and whether it stopped
// before the end: a last line with no newline yet is left for the next
// read; a line over LineMax is passed over unread, starting with the one
// it is told it is inside (skipping), and said when the read ends inside
// it (skipped). It keeps the last state.TailBytes of the lines it read
// (Reader.tail).
func (rd *Reader) scan(skipping bool, line func([]byte)) (n int64, more, skipped bool, err error) {
	var pending int64 // bytes of the line under way
	long := rd.long[:0]
	for n < CycleBytes {
		chunk, err := rd.br.ReadSlice('\n')
		pending += int64(len(chunk))
		if skipping = skipping || pending > LineMax; skipping {
			long = long[:0]
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !skipping {
				long = append(long, chunk...)
			}
			continue
		case err == io.EOF && skipping:
			// What a read holds ends inside a line too long to read:
			// passed over so far, the rest at the next read (and what
			// was read last is none of the lines kept).
			rd.last, rd.known = rd.last[:0], 0
			return n + pending, true, true, nil
		case err == io.EOF:
			return n, false, false, nil // a line not yet whole is read again next time
		case err != nil:
			return n, false, false, err
		}
		if skipping {
			rd.last, rd.known = rd.last[:0], 0
		} else {
			whole := chunk
			if len(long) > 0 {
				whole = append(long, chunk...)
			}
			rd.keep(whole)
			line(bytes.TrimSuffix(whole, []byte{'\n'}))
		}
		n += pending
		pending, long, skipping = 0, long[:0], false
	}
	rd.long = long[:0]
	return n, true, false, nil
}

// keep notes b as the last bytes read, keeping state.TailBytes of them.
func (rd *Reader) keep(b []byte) {
	rd.last = append(rd.last, b[max(len(b)-state.TailBytes, 0):]...)
	rd.known += int64(len(b))
	if extra := len(rd.last) - state.TailBytes; extra > 0 {
		rd.last = append(rd.last[:0], rd.last[extra:]...)
	}
}
