package state

// The codec's primitives: varints, strings, string lists and times, as
// EncodeRecord writes them and DecodeRecord reads them back.

import (
	"encoding/binary"
	"fmt"
	"time"
)

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// strs keeps nil and empty apart, as JSON did (null versus []).
func (e *encoder) strs(s []string) {
	if s == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(s)) + 1)
	for _, x := range s {
		e.str(x)
	}
}

// time stores an instant to the nanosecond; the zero time is one byte.
func (e *encoder) time(t time.Time) {
	if t.IsZero() {
		e.uint(0)
		return
	}
	e.uint(uint64(t.Nanosecond()) + 1)
	e.int(t.Unix())
}

// decoder reads what encoder wrote; the first short or bad read sets err
// and every later read returns zero values.
type decoder struct {
	b   []byte
	err error
	// whole is the record's bytes as one string (one allocation), which
	// every string field is cut from: a record has a dozen of them, and a
	// cycle, ls or the status line decode hundreds of records. size is
	// len(whole), for the offset of what is left in b.
	whole string
	size  int
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int undoes the zig-zag encoding binary.AppendVarint writes.
func (d *decoder) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

// count reads a length that must fit in what is left (every element takes
// at least a byte), so a corrupt length cannot ask for a huge allocation.
func (d *decoder) count() int { return d.countOf(1) }

// minPRBytes is the least a PR takes encoded: eleven fields of a byte each.
const minPRBytes = 11

// countOf reads a count of elements that take at least size bytes each.
func (d *decoder) countOf(size int) int {
	n := d.uint()
	if n > uint64(len(d.b)/size) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = ErrTruncated
	}
}

func (d *decoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	off := d.size - len(d.b)
	s := d.whole[off : off+n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) bool() bool {
	if d.err != nil || len(d.b) == 0 {
		d.fail()
		return false
	}
	v := d.b[0]
	d.b = d.b[1:]
	if v > 1 {
		d.err = fmt.Errorf("bad boolean %d", v)
	}
	return v == 1
}

func (d *decoder) strs() []string {
	n := d.uint()
	if n == 0 || d.err != nil {
		return nil
	}
	if n-1 > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	s := make([]string, n-1)
	for i := range s {
		s[i] = d.str()
	}
	return s
}

func (d *decoder) time() time.Time {
	ns := d.uint()
	if ns == 0 || d.err != nil {
		return time.Time{}
	}
	if ns > 1e9 {
		d.err = fmt.Errorf("bad nanoseconds %d", ns-1)
		return time.Time{}
	}
	return time.Unix(d.int(), int64(ns-1)).UTC()
}
