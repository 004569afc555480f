package tracer

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// FilterRule is one pattern of a region filter: the regions whose name
// matches Pattern (shell wildcards, as fnmatch(3) reads them; with
// Mangled, the mangled name) are recorded (Include) or not.
type FilterRule struct {
	Include, Mangled bool
	Pattern          string
}

// Filter is a region filter: its rules in order; the last rule whose
// pattern matches a region decides, and a region no rule matches is
// recorded.
type Filter []FilterRule

// ReadFilter reads a filter file in Score-P's syntax: rules between
// SCOREP_REGION_NAMES_BEGIN and SCOREP_REGION_NAMES_END, each INCLUDE or
// EXCLUDE (optionally followed by MANGLED) and one or more patterns,
// separated by blanks, which may continue on the following lines; # starts
// a comment; a backslash makes the next character (a blank, #, a
// wildcard) literal. Score-P's SCOREP_FILE_NAMES blocks are refused: the
// tracer knows no source files.
func ReadFilter(path string) (Filter, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	defer f.Close()
	return ParseFilter(path, f)
}

// ParseFilter parses a filter (ReadFilter) from r; name is its name in
// errors.
func ParseFilter(name string, r io.Reader) (Filter, error) {
	var out Filter
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	in := false         // inside the region block
	var cur *FilterRule // the rule patterns continue
	patterns := 0       // patterns of the current rule
	bad := func(format string, args ...any) error {
		return fmt.Errorf("filter %s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	endRule := func() error {
		if cur != nil && patterns == 0 {
			return bad("%s without a pattern", ruleWord(cur))
		}
		cur, patterns = nil, 0
		return nil
	}
	for sc.Scan() {
		line++
		toks, err := filterTokens(sc.Text())
		if err != nil {
			return nil, bad("%v", err)
		}
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			switch {
			case t == "SCOREP_REGION_NAMES_BEGIN":
				if in {
					return nil, bad("SCOREP_REGION_NAMES_BEGIN inside a region block")
				}
				in = true
			case t == "SCOREP_REGION_NAMES_END":
				if !in {
					return nil, bad("SCOREP_REGION_NAMES_END without SCOREP_REGION_NAMES_BEGIN")
				}
				if err := endRule(); err != nil {
					return nil, err
				}
				in = false
			case t == "SCOREP_FILE_NAMES_BEGIN" || t == "SCOREP_FILE_NAMES_END":
				return nil, bad("%s: source file rules are not supported (clc-trace does not know the source files of regions); filter by region name", t)
			case !in:
				return nil, bad("%q outside SCOREP_REGION_NAMES_BEGIN … SCOREP_REGION_NAMES_END", t)
			case t == "INCLUDE" || t == "EXCLUDE":
				if err := endRule(); err != nil {
					return nil, err
				}
				cur = &FilterRule{Include: t == "INCLUDE"}
				if i+1 < len(toks) && toks[i+1] == "MANGLED" {
					cur.Mangled = true
					i++
				}
			case cur == nil:
				return nil, bad("pattern %q before INCLUDE or EXCLUDE", t)
			default:
				out = append(out, FilterRule{Include: cur.Include, Mangled: cur.Mangled, Pattern: t})
				patterns++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("filter %s: %w", name, err)
	}
	if in {
		return nil, bad("SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END")
	}
	return out, nil
}

func ruleWord(r *FilterRule) string {
	w := "EXCLUDE"
	if r.Include {
		w = "INCLUDE"
	}
	if r.Mangled {
		w += " MANGLED"
	}
	return w
}

// filterTokens splits a line at blanks up to a comment; a backslash
// keeps the next character in the token (escaped, as fnmatch reads it).
func filterTokens(s string) ([]string, error) {
	var toks []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			toks = append(toks, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("a backslash ends the line")
			}
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
		case c == '#':
			flush()
			return toks, nil
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		default:
			b.WriteByte(c)
		}
	}
	flush()
	return toks, nil
}

// Spec is the filter as the library reads it (CLC_TRACE_FILTER): a rule a
// line, "I", "E", "IM" or "EM", a blank, the pattern.
func (f Filter) Spec() string {
	var b strings.Builder
	for _, r := range f {
		if r.Include {
			b.WriteByte('I')
		} else {
			b.WriteByte('E')
		}
		if r.Mangled {
			b.WriteByte('M')
		}
		b.WriteByte(' ')
		b.WriteString(r.Pattern)
		b.WriteByte('\n')
	}
	return b.String()
}
