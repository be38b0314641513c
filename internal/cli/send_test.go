package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSendArguments: "--" ends the flags and is not typed; a word that
// looks like a flag but is none is a usage error that points at "--";
// blank text is refused rather than pressing Enter alone; "-" reads the
// prompt from stdin, CRLF line ends read as LF.
func TestSendArguments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := filepath.Join(t.TempDir(), "received")
	// A raw terminal: the file holds exactly the bytes the program read. The
	// shell creates it only after stty has run; text sent before that would
	// meet a cooked terminal, which turns CR into NL.
	e.must("new", "sink", "--", "sh", "-c", `stty raw -echo && exec cat > "$0"`, out)
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(out); err == nil || time.Now().After(end) {
			break
		}
	}

	usage := func(want string, args ...string) {
		t.Helper()
		_, errs, code := e.run(args...)
		if code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("lanes %q: exit %d\n%s\nwant exit %d and %q", args, code, errs, exitUsage, want)
		}
	}
	usage("put -- before it", "send", "sink", "-x")
	usage("put -- before it", "send", "sink", "--forse", "hi")
	usage("nothing to send", "send", "sink", "")
	usage("nothing to send", "send", "sink", " ", "\t")
	usage("send needs a NAME and TEXT", "send", "sink", "--")

	e.must("send", "sink", "--", "-x")
	e.must("send", "sink", "--force", "--", "--force", "-y")
	e.must("send", "--", "sink", "-z")
	e.must("send", "sink", "a", "--", "b") // inside the text, "--" is text
	e.stdin = "from stdin;\nsecond line\n"
	e.must("send", "sink", "-")
	e.stdin = "from a CRLF file\r\nline two\r\n" // line ends as Windows editors write them
	e.must("send", "sink", "-")
	e.stdin = strings.Repeat("x", maxPrompt+1)
	if _, errs, code := e.run("send", "sink", "-"); code != exitError || !strings.Contains(errs, "over 1 MiB") {
		t.Errorf("an oversized prompt on stdin: exit %d %q", code, errs)
	}
	e.stdin = " \n"
	usage("nothing to send", "send", "sink", "-")
	want := "-x\r--force -y\r-z\ra -- b\rfrom stdin;\nsecond line\rfrom a CRLF file\nline two\r"
	var got []byte
	for end := time.Now().Add(10 * time.Second); len(got) < len(want) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		got, _ = os.ReadFile(out)
	}
	if string(got) != want {
		t.Errorf("the agent received %q, want %q (nothing from the refused sends)", got, want)
	}

	help := e.must("send", "--help")
	if !strings.Contains(help, "NAME [--force] [--] TEXT…") || !strings.Contains(help, "lanes send NAME -- -x") || !strings.Contains(help, "TEXT - reads the prompt from stdin") {
		t.Errorf("send --help does not say how to send text that starts with '-':\n%s", help)
	}
}
