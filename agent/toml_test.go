package agent

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestParseTopLevelNotify(t *testing.T) {
	cases := []struct {
		name  string
		src   string
		want  []string
		found bool
		err   bool
	}{
		{"basic", `notify = ["notify-send", "Codex"]`, []string{"notify-send", "Codex"}, true, false},
		{"quoted key", `"notify" = ['a']`, []string{"a"}, true, false},
		{"spaces and comment", "  notify=[ \"a\" ,'b' ] # trailing\n", []string{"a", "b"}, true, false},
		{"multi-line trailing comma", "notify = [\n  \"a\",\n  # comment\n  \"b\",\n]\n", []string{"a", "b"}, true, false},
		{"escapes", `notify = ["tab\there", "q\"uote", "uni\u00e9", "back\\slash"]`, []string{"tab\there", "q\"uote", "unié", "back\\slash"}, true, false},
		{"multi-line strings", "notify = [\"\"\"\nabc\"\"\", '''\nxyz''']", []string{"abc", "xyz"}, true, false},
		{"line-ending backslash", "notify = [\"\"\"one \\\n    two\"\"\"]", []string{"one two"}, true, false},
		{"after other keys", "model = \"o3\"\nn = 1\nflag = true\ndate = 1979-05-27T07:32:00Z\nnotify = [\"x\"]", []string{"x"}, true, false},
		{"after nested arrays and inline tables", "a = [[1,[2]], {b = \"]\"}]\nt = { x = { y = [\"[\"] } }\nnotify = [\"x\"]", []string{"x"}, true, false},
		{"table header first", "[tui]\nnotify = [\"x\"]", nil, false, false},
		{"array of tables first", "[[profiles]]\nnotify = [\"x\"]", nil, false, false},
		{"multi-line string hides a header", "doc = '''\n[tui]\n'''\nnotify = [\"x\"]", []string{"x"}, true, false},
		{"escape \\e", `notify = ["\e[1m"]`, []string{"\x1b[1m"}, true, false},
		{"notify is a table", "notify.x = [\"a\"]\n", nil, false, true},
		{"notify redefined", "notify.x = [\"a\"]\nnotify = [\"b\"]", nil, false, true},
		{"not TOML after notify", "notify = [\"a\"]\nmodel = o3\n", nil, false, true},
		{"absent", "model = \"o3\"\n", nil, false, false},
		{"empty file", "", nil, false, false},
		{"CRLF", "model = \"o3\"\r\nnotify = [\"a\"]\r\n", []string{"a"}, true, false},
		{"empty array", "notify = []", []string{}, true, false},
		{"string, not array", `notify = "notify-send"`, nil, false, true},
		{"array of numbers", `notify = [1, 2]`, nil, false, true},
		{"unterminated", "notify = [\"a\"", nil, false, true},
		{"bad escape", `notify = ["\q"]`, nil, false, true},
		{"newline in basic string", "notify = [\"a\nb\"]", nil, false, true},
		{"garbage before", "= 3\nnotify = [\"a\"]", nil, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, found, err := parseTopLevelNotify(tc.src)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if found != tc.found || !slices.Equal(got, tc.want) {
				t.Fatalf("got %q found %v, want %q found %v", got, found, tc.want, tc.found)
			}
		})
	}
}

func TestTOMLStringRoundTrip(t *testing.T) {
	in := []string{"/usr/local/bin/lanes", `C:\Program Files\x`, `say "hi"`, "tab\tnew\nline\x7f", `'/q' hook codex`, "é✓"}
	got, found, err := parseTopLevelNotify("notify = " + tomlStringArray(in))
	if err != nil || !found || !slices.Equal(got, in) {
		t.Fatalf("round trip: %q %v %v", got, found, err)
	}
}

// FuzzTOMLStringRoundTrip: whatever argv lanes writes as a -c notify
// override, a TOML decoder reads back exactly.
func FuzzTOMLStringRoundTrip(f *testing.F) {
	for _, s := range []string{"lanes", `C:\x`, `"q"`, "\x00\x1f\x7f", "é✓", "'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // TOML strings are UTF-8: lanes never writes another
		}
		got, found, err := parseTopLevelNotify("notify = " + tomlStringArray([]string{s, "x"}))
		if err != nil || !found || !slices.Equal(got, []string{s, "x"}) {
			t.Fatalf("%q: got %q %v %v", s, got, found, err)
		}
	})
}
