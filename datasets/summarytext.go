package datasets

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/internal/printable"
)

// WriteSummaries prints rows as a plain-text table, one line per dataset
// and preset, then a line per dataset with groups giving each group's rows
// and P(y=1).
func WriteSummaries(w io.Writer, rows []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPRESET\tROWS\tDIM\tP(y=1)\tP(a=1)\tP(y=1|a=0)\tP(y=1|a=1)\ta=1\ty=1")
	for _, r := range rows {
		preset := r.Preset
		if preset == "" {
			preset = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\n",
			printable.String(r.Name), preset, r.Rows, r.Dim, r.PY, r.PA, r.PYA0, r.PYA1, printable.String(r.A1), printable.String(r.Y1))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if len(r.Groups) == 0 {
			continue
		}
		parts := make([]string, len(r.Groups))
		for i, g := range r.Groups {
			parts[i] = fmt.Sprintf("%s %d (P(y=1) %.4f)", printable.String(g.Level), g.Rows, g.PY)
		}
		name := printable.String(r.Name)
		if r.Preset != "" {
			name += " (" + r.Preset + ")"
		}
		if _, err := fmt.Fprintf(w, "%s groups: %s\n", name, strings.Join(parts, ", ")); err != nil {
			return err
		}
	}
	return nil
}
