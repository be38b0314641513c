package state

import (
	"bytes"
	"regexp"
)

// sgr is one colour or attribute sequence, as tmux's capture-pane -e
// writes them.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]{0,64}m`)

// KeepSGR is out, another host's answer to `lanes peek --color`, with its
// colours and no other terminal control: every other sequence and control
// character is dropped by the one rule (CleanLines). Only this host's tmux
// writes what the preview takes raw.
func KeepSGR(out []byte) []byte {
	var b bytes.Buffer
	last := 0
	for _, m := range sgr.FindAllIndex(out, -1) {
		b.WriteString(CleanLines(string(out[last:m[0]])))
		b.Write(out[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(CleanLines(string(out[last:])))
	return b.Bytes()
}
