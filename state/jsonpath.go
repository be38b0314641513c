package state

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Usage is read from lines that are mostly messages (a transcript's line
// holds what the agent said and read): decoding each whole with
// encoding/json cost 16 µs a line, more than a cycle may spend on a
// hundred sessions at work. jsonAt walks a line to one value instead, by
// the value's path, skipping every other value without decoding it: no
// allocation, one pass over the bytes before it.

// jsonAt is the raw value at path (object keys, outermost first) in b, a
// JSON object; false when a key is missing or b is no object there.
func jsonAt(b []byte, path ...string) ([]byte, bool) {
	for _, key := range path {
		v, ok := member(b, key)
		if !ok {
			return nil, false
		}
		b = v
	}
	return b, true
}

// member is the raw value of object b's member key.
func member(b []byte, key string) ([]byte, bool) {
	var v [1][]byte
	members(b, []string{key}, v[:])
	return v[0], v[0] != nil
}

// members sets vals[k] to the raw value of object b's member keys[k] (nil
// for one it lacks), in one pass over b.
func members(b []byte, keys []string, vals [][]byte) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	for found := 0; found < len(keys); {
		i = skipSpace(b, i+1)
		if i >= len(b) || b[i] != '"' {
			return // "}" or nonsense: no more members
		}
		end := skipString(b, i)
		if end < 0 {
			return
		}
		name := b[i+1 : end-1]
		if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
			return
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return
		}
		for k, key := range keys {
			if vals[k] == nil && string(name) == key {
				vals[k] = b[i:vend]
				found++
			}
		}
		if i = skipSpace(b, vend); i >= len(b) || b[i] != ',' {
			return
		}
	}
}

// ints are the integers of object b's members keys, in one pass, each
// held between 0 and CountMax (0 for one it lacks or that is no whole
// number in range).
func ints(b []byte, keys ...string) []int64 {
	var buf [8][]byte
	vals := buf[:len(keys)]
	members(b, keys, vals)
	out := make([]int64, len(keys))
	for k, v := range vals {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil { // out of range: none
			out[k] = Clamp(n)
		}
	}
	return out
}

// fields are the raw values of object b's members keys, in one pass.
func fields(b []byte, keys ...string) [][]byte {
	vals := make([][]byte, len(keys))
	members(b, keys, vals)
	return vals
}

// str is raw value v as a string; "" when it is none, or one this reader
// does not take (escapes, or not UTF-8: ids and times have neither).
func str(v []byte) string {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return ""
	}
	return string(v[1 : len(v)-1])
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString is the index after the string starting at b[i] ('"'); -1
// when it does not end. A quote ends it unless an odd run of
// backslashes is before it.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for n < j-i-1 && b[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
	return -1
}

// skipValue is the index after the value starting at b[i]; -1 when it
// does not end.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = skipString(b, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' {
		j++
	}
	return j
}

// jsonFloat is the number at path; 0 when there is none.
func jsonFloat(b []byte, path ...string) float64 {
	v, ok := jsonAt(b, path...)
	if !ok {
		return 0
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return 0
	}
	return f
}
