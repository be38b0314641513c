package agent

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tailscale/hujson"
)

// Adding and removing the members and elements lanes owns in a hujson tree
// so that everything around them keeps its bytes, and removing what was
// added gives back the bytes from before.

// layout is how a document is laid out, for what lanes adds to it.
type layout struct {
	multi bool   // the document spans lines
	unit  string // one level of indentation
}

// memberIndex is the index of o's last member named name (the one JSON
// readers keep), -1 when there is none.
func memberIndex(o *hujson.Object, name string) int {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if n, ok := o.Members[i].Name.Value.(hujson.Literal); ok && n.String() == name {
			return i
		}
	}
	return -1
}

func member(o *hujson.Object, name string) *hujson.Value {
	if i := memberIndex(o, name); i >= 0 {
		return &o.Members[i].Value
	}
	return nil
}

// items are c's items by the value whose leading extra starts each (the
// member's name, or the element), the value whose trailing extra marks a
// trailing comma, and c's closing extra.
func items(c hujson.ValueTrimmed) (heads []*hujson.Value, last *hujson.Value, closing *hujson.Extra) {
	switch c := c.(type) {
	case *hujson.Object:
		for i := range c.Members {
			heads = append(heads, &c.Members[i].Name)
			last = &c.Members[i].Value
		}
		return heads, last, &c.AfterExtra
	case *hujson.Array:
		for i := range c.Elements {
			heads = append(heads, &c.Elements[i])
			last = &c.Elements[i]
		}
		return heads, last, &c.AfterExtra
	}
	return nil, nil, nil
}

// blankTail is the whitespace at the end of an extra, after any comment.
func blankTail(b hujson.Extra) string {
	return string(b[len(bytes.TrimRight(b, " \t\r\n")):])
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// spansLines: c is laid out over lines (an empty c takes the document's way).
func spansLines(c hujson.ValueTrimmed, l layout) bool {
	heads, _, closing := items(c)
	if len(heads) == 0 {
		return l.multi
	}
	for _, h := range heads {
		if bytes.ContainsRune(h.BeforeExtra, '\n') {
			return true
		}
	}
	return bytes.ContainsRune(*closing, '\n')
}

// itemIndent is the indentation of c's items: its last item's, else one
// unit more than ind, the indentation of the line c opens on.
func itemIndent(c hujson.ValueTrimmed, ind string, l layout) string {
	if heads, _, _ := items(c); len(heads) > 0 {
		ws := blankTail(heads[len(heads)-1].BeforeExtra)
		if i := strings.LastIndexByte(ws, '\n'); i >= 0 {
			return ws[i+1:]
		}
	}
	return ind + l.unit
}

// appendItem appends v, as JSON laid out like c's other items, to the
// object c as its member name, or to the array c; ind is the indentation of
// the line c opens on. It returns the new value, a pointer into c that
// stays good until c's items change. A trailing comma stays trailing, and a
// comment on the line of the item before stays on that line.
func appendItem(c hujson.ValueTrimmed, ind string, l layout, name string, v any) *hujson.Value {
	heads, last, closing := items(c)
	multi, itemInd := spansLines(c, l), itemIndent(c, ind, l)
	var lead, valueLead hujson.Extra
	if multi {
		lead, valueLead = hujson.Extra("\n"+itemInd), hujson.Extra(" ")
	}
	trailing := false
	if n := len(heads); n > 0 {
		if o, ok := c.(*hujson.Object); ok {
			if vl := o.Members[n-1].Value.BeforeExtra; isBlank(vl) && !bytes.ContainsRune(vl, '\n') {
				valueLead = bytes.Clone(vl) // the space after its colon, or none
			}
		}
		if before := heads[n-1].BeforeExtra; !bytes.ContainsRune(before, '\n') {
			// One line: the items' own separator; after a lone member, the
			// space after its colon is the best guess at the one after a comma.
			// (An item on a line of its own after a comment, as in
			// `/* env */ "env": {}`, is not one line: the new item gets a
			// line of its own, not the comment's line.)
			lead = hujson.Extra(blankTail(before))
			if n == 1 && !multi {
				lead = valueLead
			}
		}
		trailing = last.AfterExtra != nil
		if nl := bytes.IndexByte(*closing, '\n'); nl > 0 && !isBlank((*closing)[:nl]) {
			lead = append(bytes.Clone((*closing)[:nl]), lead...)
			*closing = (*closing)[nl:]
		}
	} else if isBlank(*closing) {
		*closing = nil
		if multi {
			*closing = hujson.Extra("\n" + ind)
		}
	}
	text := mustJSON(v)
	if multi {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent(itemInd, l.unit)
		_ = enc.Encode(v) // lanes' own values always encode
		text = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	val, _ := hujson.Parse(text) // encoding/json wrote it
	if trailing {
		val.AfterExtra = hujson.Extra{}
	}
	switch c := c.(type) {
	case *hujson.Object:
		val.BeforeExtra = valueLead
		c.Members = append(c.Members, hujson.ObjectMember{Name: hujson.Value{BeforeExtra: lead, Value: hujson.String(name)}, Value: val})
		return &c.Members[len(c.Members)-1].Value
	case *hujson.Array:
		val.BeforeExtra = lead
		c.Elements = append(c.Elements, val)
		return &c.Elements[len(c.Elements)-1]
	}
	return nil
}

// removeItem removes c's item i, keeping the comments before it (on the
// next item, or before c closes) and whether c has a trailing comma; it is
// the inverse of appendItem.
func removeItem(c hujson.ValueTrimmed, i int) {
	heads, last, closing := items(c)
	trailing := last.AfterExtra != nil
	next := closing
	if i+1 < len(heads) {
		next = &heads[i+1].BeforeExtra
	}
	if keep := bytes.TrimRight(heads[i].BeforeExtra, " \t\r\n"); len(keep) > 0 {
		*next = append(bytes.Clone(keep), *next...)
	}
	switch c := c.(type) {
	case *hujson.Object:
		c.Members = append(c.Members[:i], c.Members[i+1:]...)
	case *hujson.Array:
		c.Elements = append(c.Elements[:i], c.Elements[i+1:]...)
	}
	heads, last, closing = items(c)
	switch {
	case len(heads) == 0:
		if isBlank(*closing) {
			*closing = nil
		}
	case trailing && last.AfterExtra == nil:
		last.AfterExtra = hujson.Extra{}
	case !trailing && last.AfterExtra != nil:
		*closing = append(bytes.Clone(last.AfterExtra), *closing...)
		last.AfterExtra = nil
	}
}
