package cli

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// hunkContext is how many unchanged lines the dry run shows around each
// change, as diff -u does.
const hunkContext = 3

// hookDiff is the dry run's unified diff of a settings file: hunks with a
// little context, so the user reads what lanes adds, not their whole file.
// A file not there yet is diffed against /dev/null, as diff -u shows a new
// file; for an uninstall (install false) the new side is the file without
// lanes' hooks, or /dev/null when nil after means the file goes.
//
// The line diff is go-udiff's lcs; the hunks are grouped and printed here,
// in go-udiff's own format (TestHookDiffIsUdiffs holds them to it), because
// go-udiff's top package compiles a regexp at init and this binary is also
// the hook, whose start-up is budgeted.
func hookDiff(path string, install, exists bool, before, after []byte) string {
	from, to := path, path+" (with lanes hooks)"
	switch {
	case !install && after == nil:
		to = "/dev/null (removed)"
	case !install:
		to = path + " (without lanes hooks)"
	case !exists:
		from, to = "/dev/null", path+" (new file, with lanes hooks)"
	}
	a, b := splitLines(string(before)), splitLines(string(after))
	diffs := lcs.DiffLines(a, b)
	if len(diffs) == 0 {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	for i := 0; i < len(diffs); {
		// One hunk takes the changes whose context would touch or overlap.
		j := i + 1
		for j < len(diffs) && diffs[j].Start-diffs[j-1].End <= 2*hunkContext {
			j++
		}
		first, last := diffs[i], diffs[j-1]
		aStart, aEnd := max(first.Start-hunkContext, 0), min(last.End+hunkContext, len(a))
		bStart, bEnd := first.ReplStart-(first.Start-aStart), last.ReplEnd+(aEnd-last.End)
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aEnd-aStart), hunkRange(bStart, bEnd-bStart))
		k := aStart
		for _, d := range diffs[i:j] {
			writeLines(&out, ' ', a[k:d.Start])
			writeLines(&out, '-', a[d.Start:d.End])
			writeLines(&out, '+', b[d.ReplStart:d.ReplEnd])
			k = d.End
		}
		writeLines(&out, ' ', a[k:aEnd])
		i = j
	}
	return out.String()
}

// hunkRange is a hunk header's "start,count" (1-based; an empty range
// names the line before it, and a count of one is left out).
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

// writeLines writes lines with a diff prefix, marking a last line that has
// no newline as diff -u does.
func writeLines(out *strings.Builder, prefix byte, lines []string) {
	for _, l := range lines {
		out.WriteByte(prefix)
		out.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// splitLines splits text after each newline, keeping them; a last line
// without one is a line too.
func splitLines(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
