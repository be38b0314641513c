package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// skipCall is a test skipping by itself: t.Skip, b.SkipNow, tb.Skipf.
var skipCall = regexp.MustCompile(`\b\w+\.Skip(Now|f)?\(`)

// TestNoSkipOutsideTestenv: every skip of the module's tests goes through
// this package, which fails it in a full CI run. A test that called t.Skip
// itself would skip in CI unseen, and CI could not tell it from a test
// that stopped testing.
func TestNoSkipOutsideTestenv(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	self := filepath.Join(root, "internal", "testenv")
	var seen int
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path == self || name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen++
		for i, line := range strings.Split(string(b), "\n") {
			if skipCall.MatchString(line) && !strings.Contains(line, "testenv.Skip(") {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d skips by itself: %s\n\tuse testenv.Skip (fails in CI) or testenv.TmuxTier (the fast tier)", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("read %d Go files under %s: the walk missed the module", seen, root)
	}
}
