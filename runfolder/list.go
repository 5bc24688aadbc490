package runfolder

import (
	"encoding/csv"
	"fmt"
	"strings"
)

// ParseList reads the value of a List setting as the command line gives
// it: names separated by commas, each trimmed of surrounding space. A name
// that holds a comma or a double quote is written in double quotes, a
// quote within it doubled, as a field of a CSV file is ("inc,high" for the
// column inc,high; FormatList writes them so). "" is nil; an empty name
// stays in the list, for the data's check to refuse.
func ParseList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if !strings.Contains(s, `"`) {
		var out []string
		for n := range strings.SplitSeq(s, ",") {
			out = append(out, lineBreaks(strings.TrimSpace(n)))
		}
		return out, nil
	}
	r := csv.NewReader(strings.NewReader(s))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil || len(recs) != 1 {
		if err == nil {
			err = fmt.Errorf("%d lines", len(recs))
		}
		return nil, fmt.Errorf("%q: want NAME,NAME,…, a name holding a comma or a double quote in double quotes (\"inc,high\"), a quote within it doubled: %w", s, err)
	}
	out := recs[0]
	for i, n := range out {
		out[i] = lineBreaks(strings.TrimSpace(n))
	}
	return out, nil
}

// lineBreaks writes every line break of a name as "\n": a CSV reader keeps
// only the last "\r" of "\r\r\n" within a quoted name as "\n", so the
// carriage returns before a line feed are dropped, on both routes of
// ParseList alike, and what FormatList quotes reads back the same.
func lineBreaks(n string) string {
	if !strings.Contains(n, "\r\n") {
		return n
	}
	var b strings.Builder
	crs := 0 // carriage returns not written yet
	for i := 0; i < len(n); i++ {
		switch c := n[i]; {
		case c == '\r':
			crs++
			continue
		case c != '\n':
			b.WriteString(strings.Repeat("\r", crs))
		}
		crs = 0
		b.WriteByte(n[i])
	}
	b.WriteString(strings.Repeat("\r", crs))
	return b.String()
}

// FormatList writes names as ParseList reads them back: plain, comma
// separated, a name holding a comma, a double quote or a line break (or
// surrounded by space, or empty) in double quotes. A line break is quoted
// because a quote elsewhere in the list makes ParseList read it as a CSV
// record, where an unquoted one would end it.
func FormatList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = n
		if n == "" || strings.ContainsAny(n, ",\"\n\r") || n != strings.TrimSpace(n) {
			q[i] = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		}
	}
	return strings.Join(q, ",")
}
