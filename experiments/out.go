package experiments

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fpareto/fp/scalarize"
)

// DefaultOut is the folder a sweep is written to unless one is named:
// runs/DATA-METHOD-PENALTY, DATA being the built-in dataset or the CSV
// file's base name without its extension; an adversarial sweep gets
// betaS instead of the penalty when its β scale S is not 1, and a cheb-aug
// sweep whose ρ is not the default ends in rhoR.
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
	if c.Method == MethodChebAug && c.Rho != scalarize.DefaultRho {
		parts = append(parts, "rho"+strconv.FormatFloat(c.Rho, 'g', -1, 64))
	}
	return filepath.Join("runs", strings.Join(parts, "-"))
}
