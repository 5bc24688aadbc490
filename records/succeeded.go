package records

// Ext is the extension of records files: every file of a run folder whose
// name ends in it holds records (package runfolder lists and reads them).
const Ext = ".jsonl"

// Succeeded returns the records of candidates that trained to the end and
// the number of failed ones left out.
func Succeeded(recs []Record) (ok []Record, failed int) {
	ok = make([]Record, 0, len(recs))
	for i := range recs {
		if recs[i].OK() {
			ok = append(ok, recs[i])
		} else {
			failed++
		}
	}
	return ok, failed
}
