package main

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	long := "package p\n\nfunc Long() {\n" + strings.Repeat("\t_ = 0\n", 79) + "}\n\n" +
		"type T struct{}\n\nfunc (*T) Short() {\n" + strings.Repeat("\t_ = 0\n", 78) + "}\n"
	vs, err := check("p.go", []byte(long), true)
	if err != nil {
		t.Fatal(err)
	}
	want := []violation{{3, "func Long too long", 81, maxFuncLines}}
	if len(vs) != 1 || vs[0] != want[0] {
		t.Errorf("check = %+v, want %+v", vs, want)
	}
	if vs, _ := check("scripts/p.go", []byte(long), false); len(vs) != 0 {
		t.Errorf("check without funcs = %+v, want none", vs)
	}

	big := "package p\n" + strings.Repeat("\n", maxFileLines)
	vs, err = check("big.go", []byte(big), true)
	if err != nil {
		t.Fatal(err)
	}
	want = []violation{{1, "file too long", maxFileLines + 1, maxFileLines}}
	if len(vs) != 1 || vs[0] != want[0] {
		t.Errorf("check = %+v, want %+v", vs, want)
	}
}

func TestUnsafeAllowList(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"fmt\"\n\t\"unsafe\"\n)\n")
	if vs, _ := check("tui/view.go", src, true); len(vs) != 1 || vs[0].line != 5 || !strings.Contains(vs[0].what, "unsafe") {
		t.Errorf("unsafe outside the list: %+v", vs)
	}
	if vs, _ := check("tui/pace.go", src, true); len(vs) != 0 {
		t.Errorf("unsafe in the allowed file: %+v", vs)
	}
}
