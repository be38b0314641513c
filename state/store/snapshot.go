package store

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

	"lanes/internal/fsafe"
	"lanes/state"
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
//
// Its head carries the records' Tally at its stamp, which the status line
// reads without decoding a record: magic, transaction id, the tally's
// length and bytes, then the record count and each record's length and
// bytes. A restamp keeps that true: a cycle whose records are unchanged but
// whose tally at its own time differs (a silence grown past its limit, a
// done session aged out) writes the snapshot anew.
const snapshotName = "snapshot"

var snapshotMagic = []byte("lanes-snapshot-3\n")

// ErrNoSnapshot: there is no snapshot, or it cannot be read.
var ErrNoSnapshot = errors.New("no snapshot")

// snapshotWrite writes the snapshot file; a test fails it as a full disk would.
var snapshotWrite = fsafe.WriteFile

func (s *Store) snapshotPath() string { return filepath.Join(s.Dir, snapshotName) }

// writeSnapshot replaces the snapshot with recs, the records as of store
// transaction txid, stamped at.
func (s *Store) writeSnapshot(recs []*state.Record, txid uint64, at time.Time) error {
	tally := state.EncodeTally(state.TallyAt(recs, at))
	b := append([]byte(nil), snapshotMagic...)
	b = binary.AppendUvarint(b, txid)
	b = binary.AppendUvarint(b, uint64(len(tally)))
	b = append(b, tally...)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		enc := state.EncodeRecord(r)
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

// keepSnapshot restamps the snapshot at at when it holds recs as of store
// transaction txid and their tally at at; it reports whether it did.
func (s *Store) keepSnapshot(recs []*state.Record, txid uint64, at time.Time) bool {
	f, _, err := s.openSnapshot()
	if err != nil {
		return false
	}
	tx, tally, err := readSnapshotHead(f)
	f.Close()
	return err == nil && tx == txid && bytes.Equal(tally, state.EncodeTally(state.TallyAt(recs, at))) &&
		fsafe.Restamp(s.snapshotPath(), at) == nil
}

func (s *Store) removeSnapshot() { _ = os.Remove(s.snapshotPath()) }

// openSnapshot opens the snapshot, never through a link.
func (s *Store) openSnapshot() (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(s.snapshotPath(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w: not a regular file", ErrNoSnapshot)
	}
	return f, fi, nil
}

// readSnapshotHead reads a snapshot's transaction id and encoded tally,
// with one read for any tally the status line will meet.
func readSnapshotHead(f *os.File) (uint64, []byte, error) {
	b := make([]byte, 4<<10)
	n, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, nil, err
	}
	txid, tallyAt, size, err := parseSnapshotHead(b[:n])
	if err != nil {
		return 0, nil, err
	}
	if end := tallyAt + size; end > n {
		b = make([]byte, end)
		if _, err := f.ReadAt(b, 0); err != nil {
			return 0, nil, state.ErrTruncated
		}
	}
	return txid, b[tallyAt : tallyAt+size], nil
}

// parseSnapshotHead finds the transaction id and where the tally is (it may
// end past b).
func parseSnapshotHead(b []byte) (txid uint64, tallyAt, size int, err error) {
	rest, ok := bytes.CutPrefix(b, snapshotMagic)
	if !ok {
		return 0, 0, 0, errors.New("not a lanes snapshot")
	}
	txid, k := binary.Uvarint(rest)
	if k <= 0 {
		return 0, 0, 0, state.ErrTruncated
	}
	rest = rest[k:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > 1<<20 {
		return 0, 0, 0, state.ErrTruncated
	}
	return txid, len(b) - len(rest) + k, int(n), nil
}

// stamp is the snapshot's time, fi's, when it is of txid, the store's last
// committed transaction.
func (s *Store) stamp(fi os.FileInfo, txid uint64) (time.Time, error) {
	if now, ok := s.committedTx(); !ok || now != txid {
		return time.Time{}, fmt.Errorf("%w: it is of store transaction %d, the store has moved on", ErrNoSnapshot, txid)
	}
	return fi.ModTime(), nil
}

// Snapshot returns the records of the last cycle and when it ran, when
// they are still the store's.
func (s *Store) Snapshot() ([]*state.Record, time.Time, error) {
	f, fi, err := s.openSnapshot()
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
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
	at, err := s.stamp(fi, txid)
	return recs, at, err
}

// SnapshotTally returns the last cycle's tally and when it ran, when its
// records are still the store's; it decodes no record.
func (s *Store) SnapshotTally() (state.Tally, time.Time, error) {
	f, fi, err := s.openSnapshot()
	if err != nil {
		return state.Tally{}, time.Time{}, err
	}
	defer f.Close()
	txid, b, err := readSnapshotHead(f)
	if err != nil {
		return state.Tally{}, time.Time{}, fmt.Errorf("%w: %w", ErrNoSnapshot, err)
	}
	t, err := state.DecodeTally(b)
	if err != nil {
		return state.Tally{}, time.Time{}, fmt.Errorf("%w: its tally: %w", ErrNoSnapshot, err)
	}
	at, err := s.stamp(fi, txid)
	return t, at, err
}

func decodeSnapshot(b []byte) ([]*state.Record, uint64, error) {
	txid, tallyAt, size, err := parseSnapshotHead(b)
	if err != nil {
		return nil, 0, err
	}
	if tallyAt+size > len(b) {
		return nil, 0, state.ErrTruncated
	}
	rest := b[tallyAt+size:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)) {
		return nil, 0, state.ErrTruncated
	}
	rest = rest[k:]
	recs := make([]*state.Record, 0, n)
	for range n {
		size, k := binary.Uvarint(rest)
		if k <= 0 || size > uint64(len(rest)-k) {
			return nil, 0, state.ErrTruncated
		}
		r, err := state.DecodeRecord(rest[k : k+int(size)])
		if err != nil {
			return nil, 0, err
		}
		recs = append(recs, r)
		rest = rest[k+int(size):]
	}
	return recs, txid, nil
}
