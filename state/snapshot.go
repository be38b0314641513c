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
// the store. It names the store transaction its records are from, and is
// taken (and restamped) only while that is the store's last committed
// one: a write that bypassed the cycle (an older lanes, a crash before the
// removal that follows Store.Update) or a snapshot write that failed (a
// full disk) never shows a state the store has left.
const snapshotName = "snapshot"

var snapshotMagic = []byte("lanes-snapshot-2\n")

// ErrNoSnapshot: there is no snapshot, or it cannot be read.
var ErrNoSnapshot = errors.New("no snapshot")

// snapshotWrite writes the snapshot file; a test fails it as a full disk would.
var snapshotWrite = fsafe.WriteFile

func (s *Store) snapshotPath() string { return filepath.Join(s.Dir, snapshotName) }

// writeSnapshot replaces the snapshot with recs, the records as of store
// transaction txid, stamped at.
func (s *Store) writeSnapshot(recs []*Record, txid uint64, at time.Time) error {
	b := append([]byte(nil), snapshotMagic...)
	b = binary.AppendUvarint(b, txid)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		enc := encodeRecord(r)
		b = binary.AppendUvarint(b, uint64(len(enc)))
		b = append(b, enc...)
	}
	// Stamped after the rename: a reader that sees the new bytes an instant
	// early only finds them younger by the write's own time.
	if err := snapshotWrite(s.snapshotPath(), b, 0o600); err != nil {
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

// snapshotTx is the store transaction the snapshot's records are from.
func (s *Store) snapshotTx() (uint64, bool) {
	f, err := os.OpenFile(s.snapshotPath(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	b := make([]byte, len(snapshotMagic)+binary.MaxVarintLen64)
	n, _ := io.ReadFull(f, b)
	rest, ok := bytes.CutPrefix(b[:n], snapshotMagic)
	txid, k := binary.Uvarint(rest)
	return txid, ok && k > 0
}

// Snapshot returns the records of the last cycle and when it ran, when
// they are still the store's.
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
	// One read of the size stat gave (io.ReadAll would grow its buffer
	// ten times for 200 records); a snapshot rewritten meanwhile fails
	// its decode or its transaction check below.
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	recs, txid, err := decodeSnapshot(b)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	if now, ok := s.committedTx(); !ok || now != txid {
		return nil, time.Time{}, fmt.Errorf("%w: it is of store transaction %d, the store has moved on", ErrNoSnapshot, txid)
	}
	return recs, fi.ModTime(), nil
}

func decodeSnapshot(b []byte) ([]*Record, uint64, error) {
	rest, ok := bytes.CutPrefix(b, snapshotMagic)
	if !ok {
		return nil, 0, errors.New("not a lanes snapshot")
	}
	txid, k := binary.Uvarint(rest)
	if k <= 0 {
		return nil, 0, errTruncated
	}
	rest = rest[k:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)) {
		return nil, 0, errTruncated
	}
	rest = rest[k:]
	recs := make([]*Record, 0, n)
	for range n {
		size, k := binary.Uvarint(rest)
		if k <= 0 || size > uint64(len(rest)-k) {
			return nil, 0, errTruncated
		}
		r, err := decodeRecord(rest[k : k+int(size)])
		if err != nil {
			return nil, 0, err
		}
		recs = append(recs, r)
		rest = rest[k+int(size):]
	}
	return recs, txid, nil
}
