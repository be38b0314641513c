// Package near finds the word a user probably meant: the one known word
// a typo is closest to, for "did you mean" hints (commands, config keys).
package near

import "strings"

// Word is the one word of among that is one edit from word, or that
// starts with it (two letters at least); "" when none or several are.
func Word(word string, among []string) string {
	var found []string
	for _, c := range among {
		if Distance(word, c) <= 1 || len(word) >= 2 && strings.HasPrefix(c, word) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

// Distance counts the insertions, deletions, substitutions and swaps of
// two neighbours that make a into b (the optimal string alignment
// distance), in bytes: the words it compares are ASCII.
func Distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
