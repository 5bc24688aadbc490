package datasets

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// RowColumn names the column of each row's 0-based index in its dataset,
// which the exports write first so that other tools join rows by key, not
// by their order: a row has the same index whichever part of a split is
// written. It is reserved: a file read with it (LoadCSV, fp train --data,
// fp predict, fp audit) never takes it as a feature.
const RowColumn = "fp_row"

// WriteCSV writes d's rows as a CSV file with a header row: RowColumn,
// then the source columns its features come from under their own names, with their raw
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
	features := make([]string, len(d.Schema.Columns))
	for j, c := range d.Schema.Columns {
		features[j] = c.Name
	}
	rows, cw, err := d.startCSV(w, rows, features)
	if err != nil {
		return 0, err
	}
	for k, i := range rows {
		raw, err := d.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			return k, fmt.Errorf("write %s: row %d: %w", d.Name, i+1, err)
		}
		group := strconv.Itoa(int(d.A[i]))
		if d.Levels != nil {
			group = d.Levels[d.Groups[i]]
		}
		row := slices.Concat([]string{strconv.Itoa(i)}, raw, []string{strconv.Itoa(int(d.Y[i])), group})
		if err := cw.Write(row); err != nil {
			return k, err
		}
	}
	cw.Flush()
	return len(rows), cw.Error()
}

// WriteCodedCSVRows writes the rows with the given indices (every row when
// rows is nil) as a network sees them: RowColumn, then the coded feature
// matrix x of those rows (row-major, len(rows)×len(columns), such as a
// split's Standardizer gives) under the names of its columns ("age",
// "sex=Male"), then the target coded 0/1 and the sensitive column coded
// 0/1, or with groups (d.Levels) each row's group index into d.Levels. The
// values are written in full (strconv's shortest form that reads back to
// the same float64). It returns the number of rows written.
func (d *Dataset) WriteCodedCSVRows(w io.Writer, rows []int, columns []string, x []float64) (int, error) {
	rows, cw, err := d.startCSV(w, rows, columns)
	if err != nil {
		return 0, err
	}
	dim := len(columns)
	if len(x) != len(rows)*dim {
		return 0, fmt.Errorf("write %s: %d coded values for %d rows of %d columns", d.Name, len(x), len(rows), dim)
	}
	row := make([]string, dim+3)
	for k, i := range rows {
		row[0] = strconv.Itoa(i)
		for j, v := range x[k*dim : (k+1)*dim] {
			row[1+j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		group := int(d.A[i])
		if d.Levels != nil {
			group = d.Groups[i]
		}
		row[dim+1], row[dim+2] = strconv.Itoa(int(d.Y[i])), strconv.Itoa(group)
		if err := cw.Write(row); err != nil {
			return k, err
		}
	}
	cw.Flush()
	return len(rows), cw.Error()
}

// startCSV checks d and the row indices (nil: every row, which it returns
// listed) and writes the header: RowColumn, the feature columns, the target
// and the sensitive column.
func (d *Dataset) startCSV(w io.Writer, rows []int, features []string) ([]int, *csv.Writer, error) {
	header := slices.Concat([]string{RowColumn}, features)
	for _, name := range []string{d.Target, d.Sensitive} {
		if slices.Contains(header, name) {
			return nil, nil, fmt.Errorf("write %s: column %q is both a feature (or %s) and the target or sensitive column", d.Name, name, RowColumn)
		}
		header = append(header, name)
	}
	if slices.Contains(features, RowColumn) {
		return nil, nil, fmt.Errorf("write %s: a feature column is named %q, the name of the row index", d.Name, RowColumn)
	}
	if d.Dim == 0 || len(d.X) != d.N*d.Dim || len(d.Y) != d.N || len(d.A) != d.N {
		return nil, nil, fmt.Errorf("write %s: %d rows of %d values, %d labels and %d groups do not match", d.Name, d.N, d.Dim, len(d.Y), len(d.A))
	}
	if rows == nil {
		rows = make([]int, d.N)
		for i := range rows {
			rows[i] = i
		}
	}
	for _, i := range rows {
		if i < 0 || i >= d.N {
			return nil, nil, fmt.Errorf("write %s: row index %d out of range [0, %d)", d.Name, i, d.N)
		}
	}
	cw := csv.NewWriter(w)
	return rows, cw, cw.Write(header)
}
