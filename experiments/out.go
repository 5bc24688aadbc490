package experiments

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fpareto/fp/datasets"
)

// DefaultOut is the folder a sweep is written to unless one is named:
// runs/DATA-METHOD-PENALTY, DATA being the built-in dataset or the CSV
// file's base name without its extension; an adversarial sweep gets
// betaS instead of the penalty when its β scale S is not 1.
func DefaultOut(c Config) string {
	name := c.Dataset
	if c.CSV != "" {
		name = strings.TrimSuffix(filepath.Base(c.CSV), filepath.Ext(c.CSV))
	}
	parts := []string{name, c.Method}
	switch {
	case c.Method == MethodAdversarial && c.AdvBetaScale != 1:
		parts = append(parts, "beta"+strconv.FormatFloat(c.AdvBetaScale, 'g', -1, 64))
	case c.Method != MethodAdversarial && c.Penalty != "":
		parts = append(parts, c.Penalty)
	}
	return filepath.Join("runs", strings.Join(parts, "-"))
}

// DataFile names the file that the networks of the run in dir read: the
// run's CSV, or the built-in dataset's original file; "" when the folder
// holds no readable configuration.
func DataFile(dir string) string {
	cfg, err := ReadConfig(dir)
	switch {
	case err != nil:
		return ""
	case cfg.CSV != "":
		return cfg.CSV
	}
	return datasets.OriginalFile(cfg.Dataset)
}
