// Command sizes checks the size limits the brief sets for lanes: every Go
// file at most 400 lines, and every function or method outside scripts/ at
// most 80 lines; and that no file imports unsafe but those of unsafeAllowed.
// CI runs it from the repository root:
//
//	go run ./scripts/internal/sizes
//
// It prints one line per violation and exits 1 if there is any.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

const (
	maxFileLines = 400
	maxFuncLines = 80
)

// unsafeAllowed are the files that may import unsafe, each with why.
var unsafeAllowed = map[string]string{
	"tui/pace.go": "the frame pacer sets Bubble Tea's unexported renderer ticker (TestPacerDrivesTheRenderer fails when it moves)",
}

// violation is one limit broken at a place in a file.
type violation struct {
	line  int
	what  string
	lines int
	limit int
}

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(),
			"usage: go run ./scripts/internal/sizes (from the repository root)\n"+
				"Reports Go files over %d lines and, outside scripts/, functions over %d lines; exits 1 if any.\n",
			maxFileLines, maxFuncLines)
	}
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run("."))
}

func run(root string) int {
	files, count := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		vs, err := check(slash, src, !strings.HasPrefix(slash, "scripts/"))
		if err != nil {
			return err
		}
		for _, v := range vs {
			if v.limit == 0 {
				fmt.Printf("%s:%d: %s\n", slash, v.line, v.what)
				continue
			}
			fmt.Printf("%s:%d: %s (%d lines, limit %d)\n", slash, v.line, v.what, v.lines, v.limit)
		}
		files++
		count += len(vs)
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sizes:", err)
		return 2
	}
	if count > 0 {
		return 1
	}
	fmt.Printf("sizes: %d Go files, none over %d lines, no function over %d lines outside scripts/, unsafe only in %d allowed\n",
		files, maxFileLines, maxFuncLines, len(unsafeAllowed))
	return 0
}

// check returns the limits the Go source src breaks; funcs says whether
// its functions are held to the function limit too.
func check(path string, src []byte, funcs bool) ([]violation, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var vs []violation
	if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
		vs = append(vs, violation{1, "file too long", n, maxFileLines})
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == `"unsafe"` && unsafeAllowed[path] == "" {
			vs = append(vs, violation{fset.Position(imp.Pos()).Line, "imports unsafe, outside the allow-list (scripts/internal/sizes)", 0, 0})
		}
	}
	if !funcs {
		return vs, nil
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		first := fset.Position(fn.Pos()).Line
		n := fset.Position(fn.End()).Line - first + 1
		if n > maxFuncLines {
			vs = append(vs, violation{first, "func " + funcName(fn) + " too long", n, maxFuncLines})
		}
	}
	return vs, nil
}

// funcName names fn as a reader looks for it: Type.Method or Func.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}
