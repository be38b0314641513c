package tmux

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNeverSetsGlobalOptions guards the rule that lanes never changes the
// user's global tmux options: no source file of the package (this one
// aside) spells a global set, and no non-test file has a "-g" argument at
// all, whichever command it would go to.
func TestNeverSetsGlobalOptions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := filepath.Glob("tmuxtest/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, sub...)
	if len(files) < 5 {
		t.Fatalf("found only %v; is the test running in the package directory?", files)
	}
	banned := []string{"set -g", "set-option -g", "setw -g", "set-window-option -g", "set -wg", "setw", "set-window-option"}
	for _, f := range files {
		if f == "noglobal_test.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range banned {
			if strings.Contains(string(src), b) {
				t.Errorf("%s contains %q", f, b)
			}
		}
		if !strings.HasSuffix(f, "_test.go") {
			for _, lit := range stringLiterals(t, f, src) {
				if isFlagCluster(lit) && strings.ContainsRune(lit, 'g') {
					t.Errorf("%s has a %q argument", f, lit)
				}
			}
		}
	}
}

func stringLiterals(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(name, -1, len(src)), src, nil, 0)
	var lits []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return lits
		}
		if tok == token.STRING {
			v, err := strconv.Unquote(lit)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			lits = append(lits, v)
		}
	}
}

// isFlagCluster reports whether s looks like short flags ("-g", "-gq").
func isFlagCluster(s string) bool {
	if len(s) < 2 || len(s) > 6 || s[0] != '-' {
		return false
	}
	for _, r := range s[1:] {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}
