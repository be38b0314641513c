package store

import (
	"encoding/binary"
	"hash/fnv"
	"os"
	"syscall"
)

// boltMeta is what lanes reads of a bbolt meta page itself (file format:
// go.etcd.io/bbolt's internal/common meta.go and page.go).
type boltMeta struct{ pageSize, freelist, pgid, txid uint64 }

// pageHeader is a bbolt page's header: id u64, flags u16, count u16,
// overflow u32.
const pageHeader = 16

// readMeta returns the meta page bbolt would take from f: of the two, the
// valid one with the higher transaction id. ok is false when neither is
// valid.
func readMeta(f *os.File) (m boltMeta, ok bool) {
	read := func(off int64) (boltMeta, bool) {
		b := make([]byte, pageHeader+64)
		if _, err := f.ReadAt(b, off); err != nil {
			return boltMeta{}, false
		}
		m := b[pageHeader:] // magic u32, version u32, pageSize u32, flags u32, root u64×2, freelist, pgid, txid, checksum
		h := fnv.New64a()
		h.Write(m[:56])
		le := binary.LittleEndian
		ok := le.Uint32(m) == 0xED0CDAED && le.Uint32(m[4:]) == 2 && le.Uint64(m[56:]) == h.Sum64()
		return boltMeta{uint64(le.Uint32(m[8:])), le.Uint64(m[32:]), le.Uint64(m[40:]), le.Uint64(m[48:])}, ok
	}
	m0, ok0 := read(0)
	size := int64(os.Getpagesize())
	if ok0 {
		size = int64(m0.pageSize)
	}
	m1, ok1 := read(size)
	switch {
	case !ok0 && !ok1:
		return boltMeta{}, false
	case !ok0, ok1 && m1.txid > m0.txid:
		return m1, true
	}
	return m0, true
}

// committedTx is the id of the store's last committed transaction, read
// from its meta page without the lock: a commit writes its meta page last,
// and a torn one fails its checksum, so the id read is one that committed.
func (s *Store) committedTx() (uint64, bool) {
	f, err := os.OpenFile(s.Path(), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	m, ok := readMeta(f)
	return m.txid, ok
}
