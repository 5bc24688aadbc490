// Package htmlreport writes the report of one or more sweeps as a single
// self-contained HTML page: a summary of the runs, the warnings to read
// before picking a candidate (banners, such as poor overlap), a key to the
// figures, the front of every unfairness metric as an interactive SVG
// figure, the table of non-dominated candidates, the method comparison and
// the per-split constants and propensity diagnostics.
//
// Build assembles a Page (the view model) from run folders; Render writes
// it with html/template. Scripts, styles and data are embedded in the page,
// which loads nothing from the network and opens from disk. Parts of a Page
// left empty (a statistic the runs do not record) are shown as "not
// available for this run", so that the page grows with what the records
// hold.
package htmlreport
