package cli

import (
	"flag"
	"regexp"
	"strings"
)

// parseArgs reads a command line into fs: the one parser for lanes' global
// flags, every command and the hook. Its rules:
//
//   - A word that starts with '-' (other than "-" alone, which is an
//     argument) is a flag of fs, spelled any way the flag package knows:
//     -f, --f, -f=V, --f V.
//   - Flags may come before, between or after the positional arguments.
//   - A flag that takes a value takes the next word, whatever it is; with no
//     next word it is an error ("flag needs an argument"), never a
//     positional argument taken for its value.
//   - -h, -help or --help, wherever a flag may be, returns flag.ErrHelp.
//   - A flag fs does not define is an error.
//   - "--" ends the flags and is not an argument: every word after it is
//     one, dashes and all.
//
// The one special case is textAfter (send's prompt, and the command after
// the global flags): when it is n >= 0, every word after the first n
// positional arguments is an argument as it stands — a word there that
// starts with '-' is not a flag, and a "--" there is kept. textAfter < 0
// has no such point.
//
// The positional arguments, then the words after "--", are fs.Args(); tail
// is the words after the "--" that ended the flags (new's agent argv), nil
// when none did.
func parseArgs(fs *flag.FlagSet, args []string, textAfter int) (tail []string, err error) {
	var flags, pos []string
	dangling := ""
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if textAfter >= 0 && len(pos) > textAfter {
			pos = append(pos, args[i:]...)
			break
		}
		if arg == "--" {
			tail = args[i+1:]
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			pos = append(pos, arg)
			continue
		}
		name := strings.TrimLeft(arg, "-")
		f := fs.Lookup(name)
		switch {
		case strings.Contains(name, "=") || f == nil || isBool(f):
			flags = append(flags, arg)
		case i+1 < len(args):
			flags = append(flags, arg, args[i+1])
			i++
		default:
			dangling = arg
		}
	}
	if dangling != "" {
		return tail, fs.Parse(append(flags, dangling)) // it reports the missing value
	}
	// The flags first, then "--" so no argument is read as one.
	words := make([]string, 0, len(flags)+1+len(pos)+len(tail))
	words = append(append(append(append(words, flags...), "--"), pos...), tail...)
	return tail, fs.Parse(words)
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagDash is the dash the flag package puts before a flag's name in its
// errors ("flag provided but not defined: -jsn").
var flagDash = regexp.MustCompile(`( )-([A-Za-z])`)

// flagErr is a flag package error as lanes spells flags: with two dashes,
// as its help and README write them, however many the user typed.
func flagErr(err error) string { return flagDash.ReplaceAllString(err.Error(), "$1--$2") }
