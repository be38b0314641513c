package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// errShortWrite: the spool file took only part of a line (docs/design.md §6).
var errShortWrite = errors.New("short write")

// writeLine appends b (one line with its newline) to f, which is open with
// O_APPEND, in one write(2) — so lines from concurrent hooks never
// interleave — and leaves a whole line or nothing.
//
// A full disk can cut the write short. The bytes written are then overwritten
// in place with blanks and a newline: a blank line, which ingest skips.
// Truncating back would be wrong: another hook may append between our write
// and the truncate, and its line would be cut. Overwriting touches only our
// own bytes, whatever came after, and needs no new space. Should it fail too
// (a copy-on-write filesystem), ingest still recovers the next whole line
// from behind the fragment.
func writeLine(f *os.File, b []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var werr error
	var end int64
	if err := rc.Write(func(fd uintptr) bool {
		for {
			n, werr = syscall.Write(int(fd), b)
			if werr != syscall.EINTR {
				break
			}
		}
		n = max(n, 0)
		if n > 0 && n < len(b) {
			end, werr = blankOwnBytes(int(fd), n, werr)
		}
		return true
	}); err != nil {
		return err
	}
	switch {
	case n == len(b):
		return nil
	case werr == nil:
		werr = io.ErrShortWrite
	}
	if n == 0 {
		return werr
	}
	return fmt.Errorf("%w: %d of %d bytes, blanked at offset %d: %w", errShortWrite, n, len(b), end-int64(n), werr)
}

// blankOwnBytes overwrites the n bytes the last write to fd put just before
// fd's offset (O_APPEND leaves it after them) with a blank line, and passes
// on the write's error. pwrite on an O_APPEND descriptor appends on Linux,
// so the flag is cleared first; fd is closed right after.
func blankOwnBytes(fd, n int, werr error) (int64, error) {
	end, err := syscall.Seek(fd, 0, io.SeekCurrent)
	if err == nil {
		err = clearAppend(fd)
	}
	if err == nil {
		blank := append(bytes.Repeat([]byte{' '}, n-1), '\n')
		_, err = syscall.Pwrite(fd, blank, end-int64(n))
	}
	if err != nil {
		return end, fmt.Errorf("%v; blanking the partial line failed (ingest skips it): %w", werr, err)
	}
	return end, werr
}

func clearAppend(fd int) error {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno == 0 {
		_, _, errno = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, flags&^syscall.O_APPEND)
	}
	if errno != 0 {
		return errno
	}
	return nil
}
