package records

import (
	"fmt"
	"path/filepath"
)

// checkWeights refuses a record's network path unless it stays inside the
// record's run folder: relative, and not climbing out with "..". Commands
// join it to the folder and read (fp plot --dist, fp report) or hand on
// (fp pick → fp predict) the file it names, so a records file from
// elsewhere must not point them at any file on the machine.
func checkWeights(w string) error {
	if w == "" || filepath.IsLocal(w) {
		return nil
	}
	return fmt.Errorf("weights %q: want a path inside the run folder (relative, without ..)", w)
}
