package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"lanes/state/fsafe"
)

// The snapshot is the records as of the last cycle, in the store's record
// codec, written by that cycle while it still holds the store's lock, so
// that readers (status-line, ls) need not wait on a writer: a reader takes
// it when it is young enough and derives from it at its own now, as from
// the store. Any other write to the store removes it, so it never shows a
// state the store has left.
const snapshotName = "snapshot"

var snapshotMagic = []byte("lanes-snapshot-1\n")

// ErrNoSnapshot: there is no snapshot, or it cannot be read.
var ErrNoSnapshot = errors.New("no snapshot")

func (s *Store) snapshotPath() string { return filepath.Join(s.Dir, snapshotName) }

// writeSnapshot replaces the snapshot with recs, stamped at.
func (s *Store) writeSnapshot(recs []*Record, at time.Time) error {
	b := append([]byte(nil), snapshotMagic...)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		enc := encodeRecord(r)
		b = binary.AppendUvarint(b, uint64(len(enc)))
		b = append(b, enc...)
	}
	// Stamped after the rename: a reader that sees the new bytes an instant
	// early only finds them younger by the write's own time.
	if err := fsafe.WriteFile(s.snapshotPath(), b, 0o600); err != nil {
		return err
	}
	return fsafe.Touch(s.snapshotPath(), at)
}

// touchSnapshot restamps an existing snapshot whose records are still the
// store's; it reports whether there was one.
func (s *Store) touchSnapshot(at time.Time) bool {
	return fsafe.Restamp(s.snapshotPath(), at) == nil
}

func (s *Store) removeSnapshot() { _ = os.Remove(s.snapshotPath()) }

// Snapshot returns the records of the last cycle and when it ran.
func (s *Store) Snapshot() ([]*Record, time.Time, error) {
	f, err := os.OpenFile(s.snapshotPath(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, time.Time{}, fmt.Errorf("%w: not a regular file", ErrNoSnapshot)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	recs, err := decodeSnapshot(b)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	return recs, fi.ModTime(), nil
}

func decodeSnapshot(b []byte) ([]*Record, error) {
	rest, ok := bytes.CutPrefix(b, snapshotMagic)
	if !ok {
		return nil, errors.New("not a lanes snapshot")
	}
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)) {
		return nil, errTruncated
	}
	rest = rest[k:]
	recs := make([]*Record, 0, n)
	for range n {
		size, k := binary.Uvarint(rest)
		if k <= 0 || size > uint64(len(rest)-k) {
			return nil, errTruncated
		}
		r, err := decodeRecord(rest[k : k+int(size)])
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
		rest = rest[k+int(size):]
	}
	return recs, nil
}
