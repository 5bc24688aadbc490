package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/runfolder"
)

// overlapReport is what fp front, compare and pick add about the overlap
// behind the ATO values: every run's overlap summary, by run and split, and
// the one-line warning when some split's ATO is unreliable. Its fields join
// the commands' JSON documents.
type overlapReport struct {
	Overlap    []runfolder.RunOverlap `json:"overlap"`
	ATOWarning string                 `json:"ato_warning,omitempty"`
}

// readOverlapReport reads the overlap summaries of the runs s was read
// from and judges the ATO of their records. An unreadable summary is
// reported on stderr, not an error: the records' own decision still stands.
func readOverlapReport(c *cli.Context, s *sweeps) overlapReport {
	rep := overlapReport{Overlap: []runfolder.RunOverlap{}}
	ovs, err := runfolder.ReadRunOverlaps(s.paths)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: %v\n", err)
	} else if ovs != nil {
		rep.Overlap = ovs
	}
	rep.ATOWarning = runfolder.ATOWarning(s.ok, rep.Overlap)
	return rep
}

// warn prints the unreliable-ATO warning, if any, in one line.
func (o overlapReport) warn(w io.Writer) {
	if o.ATOWarning != "" {
		fmt.Fprintln(w, "fp: warning: "+o.ATOWarning)
	}
}
