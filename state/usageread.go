package state

import (
	"bytes"
	"math"
	"time"
)

// UsageReading is how lanes reads usage from one agent's records:
// Markers are texts every line worth reading holds (a line without them
// is passed over unread: most of a transcript is messages), Read what one
// such line says (jsonpath.go: walked to its numbers, not decoded whole).
type UsageReading struct {
	Markers [][]byte
	Read    func(line []byte) (UsageLine, bool)
}

func markers(m ...string) [][]byte {
	out := make([][]byte, len(m))
	for i, s := range m {
		out[i] = []byte(s)
	}
	return out
}

// ReadUsage is what line of agent a's record says about usage; false when
// it says nothing (or a is no agent whose records lanes reads).
func ReadUsage(a Agent, line []byte) (UsageLine, bool) {
	rd, ok := ReadingOf(a)
	if !ok || rd.Usage == nil {
		return UsageLine{}, false
	}
	for _, m := range rd.Usage.Markers {
		if !bytes.Contains(line, m) {
			return UsageLine{}, false
		}
	}
	return rd.Usage.Read(line)
}

// stamp is an RFC 3339 time an agent wrote; zero when it wrote none.
func stamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// micros is a US dollar amount in millionths, rounded; 0 for nonsense.
func micros(usd float64) int64 {
	if usd <= 0 || usd > 1e9 || math.IsNaN(usd) {
		return 0
	}
	return int64(math.Round(usd * 1e6))
}

// counts keeps a line's numbers sane: a count below zero is nonsense and
// counts as none, one past CountMax as CountMax.
func counts(t Tokens) Tokens {
	for _, n := range []*int64{&t.In, &t.Out, &t.CacheRead, &t.CacheWrite, &t.CostMicros} {
		*n = Clamp(*n)
	}
	return t
}

// Clamp is n held between 0 and CountMax.
func Clamp(n int64) int64 { return min(max(n, 0), CountMax) }
