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
			out = append(out, strings.TrimSpace(n))
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
		out[i] = strings.TrimSpace(n)
	}
	return out, nil
}

// FormatList writes names as ParseList reads them back: plain, comma
// separated, a name holding a comma or a double quote (or surrounded by
// space) in double quotes.
func FormatList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = n
		if strings.ContainsAny(n, `,"`) || n != strings.TrimSpace(n) {
			q[i] = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		}
	}
	return strings.Join(q, ",")
}
