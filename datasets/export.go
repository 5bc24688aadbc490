package datasets

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// WriteCSV writes d's rows as a CSV file with a header row: the source
// columns its features come from under their own names, with their raw
// values (Schema.Raw), then the target column and the sensitive column
// under their own names, each holding d's 0/1 coding (1 is
// d.LabelPositive, resp. d.GroupPositive, and for a built-in dataset
// whose sensitive column has more values, such as COMPAS's race, 0 is
// every other value). A network trained on d reads the file as it reads
// d's source, and `fp train --data FILE --target T --sensitive S` codes y
// and a as d does. With groups (d.Levels) the sensitive column holds each
// row's level instead, so that `--sensitive-levels all` groups the file as
// d is grouped. It returns the number of rows written.
func (d *Dataset) WriteCSV(w io.Writer) (int, error) {
	return d.WriteCSVRows(w, nil)
}

// WriteCSVRows is WriteCSV for the rows with the given indices, in that
// order (every row when rows is nil): one part of a split, for instance.
func (d *Dataset) WriteCSVRows(w io.Writer, rows []int) (int, error) {
	header := make([]string, 0, len(d.Schema.Columns)+2)
	for _, c := range d.Schema.Columns {
		header = append(header, c.Name)
	}
	for _, name := range []string{d.Target, d.Sensitive} {
		if slices.Contains(header, name) {
			return 0, fmt.Errorf("write %s: column %q is both a feature and the target or sensitive column", d.Name, name)
		}
		header = append(header, name)
	}
	if d.Dim == 0 || len(d.X) != d.N*d.Dim || len(d.Y) != d.N || len(d.A) != d.N {
		return 0, fmt.Errorf("write %s: %d rows of %d values, %d labels and %d groups do not match", d.Name, d.N, d.Dim, len(d.Y), len(d.A))
	}
	if rows == nil {
		rows = make([]int, d.N)
		for i := range rows {
			rows[i] = i
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return 0, err
	}
	for k, i := range rows {
		if i < 0 || i >= d.N {
			return k, fmt.Errorf("write %s: row index %d out of range [0, %d)", d.Name, i, d.N)
		}
		row, err := d.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			return k, fmt.Errorf("write %s: row %d: %w", d.Name, i+1, err)
		}
		group := strconv.Itoa(int(d.A[i]))
		if d.Levels != nil {
			group = d.Levels[d.Groups[i]]
		}
		row = append(row, strconv.Itoa(int(d.Y[i])), group)
		if err := cw.Write(row); err != nil {
			return k, err
		}
	}
	cw.Flush()
	return len(rows), cw.Error()
}
