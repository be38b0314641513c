package listing

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every string another host sends is made printable: the fields, the
// pointed-to ones, the PRs', a map's keys (issue 30, item 4).
func TestCleanSession(t *testing.T) {
	const bad = `\u001b]52;c;aGk=\u0007\u009b2J\u202e` // as JSON escapes
	line := `{"id":"abcd1234","name":"n` + bad + `","branch":"b` + bad + `","terminated_reason":"r` + bad +
		`","prs":[{"number":1,"head":"h` + bad + `","url":"u` + bad + `"}],"events_dropped":{"k` + bad + `":2},"marks":["m` + bad + `"]}`
	var s Session
	if err := json.Unmarshal([]byte(line), &s); err != nil {
		t.Fatal(err)
	}
	s.Clean()
	b, _ := json.Marshal(s)
	for _, c := range []string{"\x1b", "\\u001b", "\u009b", "\u202e", "\\u0007"} {
		if strings.Contains(string(b), c) {
			t.Errorf("%q left in %s", c, b)
		}
	}
	if s.Name != "n" || s.Branch != "b" || *s.TerminatedReason != "r" || s.PRs[0].Head != "h" || s.EventsDropped["k"] != 2 || s.Marks[0] != "m" {
		t.Errorf("cleaned session: %+v", s)
	}
}
