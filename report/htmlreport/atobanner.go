package htmlreport

import (
	"strings"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// atoBanners are the messages for the report's first screen when some of
// the runs' splits have an unreliable ATO (records' ato_reliable false): one
// line naming the runs and splits, the reason, the column that predicts
// the sensitive attribute best and what to do (runfolder.ATOWarning); none
// when every split's ATO is reliable. recs are the runs' records, their
// Source the path each run was named by; an unreadable overlap summary
// only loses the column's name.
func atoBanners(paths []string, recs []records.Record) []string {
	ovs, _ := runfolder.ReadRunOverlaps(paths)
	w := runfolder.ATOWarning(recs, ovs)
	if w == "" {
		return nil
	}
	return []string{strings.ToUpper(w[:1]) + w[1:] + "."}
}
