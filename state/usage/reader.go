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
	// over as many cycles as it takes, from where the last stopped.
	CycleBytes = 16 << 20
	// LineMax is the longest line read whole; a longer one (a message
	// holding a big file) is passed over without being held, uncounted.
	LineMax = 8 << 20
	// EndedFor is how long after its session ended a record is still read:
	// the agent's last lines land after its last hook.
	EndedFor = 2 * time.Minute
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
}

type fileSeen struct {
	path, ident string
	size        int64
	mod         time.Time
	offset      int64
}

// NewReader returns a Reader of the files this process's user owns.
func NewReader() *Reader { return &Reader{uid: os.Getuid(), seen: map[string]fileSeen{}} }

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
	var out map[string]Read
	for _, r := range recs {
		if r.Usage.Src.Path == "" || r.Runtime.Terminated && now.Sub(r.Runtime.TerminatedAt) > EndedFor {
			continue
		}
		if _, ok := state.ReadingOf(r.Agent); !ok {
			continue
		}
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

var errRefused = errors.New("not a file lanes reads")

// read reads what r's record gained since r.Usage.Src; false when it
// gained nothing.
func (rd *Reader) read(r *state.Record, now time.Time) (state.Usage, bool, error) {
	src := r.Usage.Src
	fi, err := os.Lstat(src.Path)
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
	if ident = identOf(fi); ident != src.Ident || fi.Size() < src.Offset || !holds(f, src.Offset, src.Tail) {
		// Another file at the path (rotated, replaced), or this one cut
		// short or written anew: a record of its own, read from its start.
		u.Src = state.UsageSource{Path: src.Path, Ident: ident}
	}
	n, more, err := scan(f, u.Src.Offset, func(line []byte) {
		if l, ok := state.ReadUsage(r.Agent, line); ok {
			u.Take(l, now)
		}
	})
	if n > 0 {
		u.Src.Offset += n
		u.Src.Tail = tail(f, u.Src.Offset)
	}
	delete(rd.seen, r.ID)
	if !more { // read to its end: not opened again until it changes
		rd.seen[r.ID] = fileSeen{src.Path, ident, fi.Size(), fi.ModTime(), u.Src.Offset}
	}
	if err != nil {
		return state.Usage{}, false, err
	}
	return u, u.Src != r.Usage.Src, nil
}

// holds reports whether f still holds what was read up to offset, as far
// as its tail's digest says.
func holds(f *os.File, offset int64, digest string) bool {
	return offset == 0 || tail(f, offset) == digest
}

// tail is the digest of the state.TailBytes of f before offset (or all
// of them when fewer).
func tail(f *os.File, offset int64) string {
	b := make([]byte, min(offset, state.TailBytes))
	if _, err := f.ReadAt(b, offset-int64(len(b))); err != nil {
		return ""
	}
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
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%w: %s is %s", errRefused, path, fi.Mode().Type())
	case fsafe.Owner(fi) != uid:
		err = fmt.Errorf("%w: %s is %s's", errRefused, path, fsafe.Who(fsafe.Owner(fi)))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// identOf names the file fi is: its device and inode.
func identOf(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}

// scan calls line for each whole line of f from offset on, up to
// CycleBytes of them, and returns how many bytes they took and whether
// it stopped before the end: a last line with no newline yet is left for
// the next read; a line over LineMax is passed over unread.
func scan(f *os.File, offset int64, line func([]byte)) (n int64, more bool, err error) {
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return 0, false, err
	}
	br := bufio.NewReaderSize(io.LimitReader(f, CycleBytes+LineMax), 64<<10)
	var pending int64 // bytes of the line under way
	var long []byte
	skipping := false
	for n < CycleBytes {
		chunk, err := br.ReadSlice('\n')
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
		case err == io.EOF:
			return n, false, nil // a line not yet whole is read again next time
		case err != nil:
			return n, false, err
		}
		if !skipping {
			whole := chunk
			if len(long) > 0 {
				whole = append(long, chunk...)
			}
			line(bytes.TrimSuffix(whole, []byte{'\n'}))
		}
		n += pending
		pending, long, skipping = 0, long[:0], false
	}
	return n, true, nil
}
