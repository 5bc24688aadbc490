package experiments

import (
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// CommandDefaults is fp train's defaults as its flags state them:
// DefaultConfig's stored configuration with the settings that DefaultConfig
// leaves to Resolved filled in as the flags default to them (cheb-aug's ρ,
// scalarize.DefaultRho; a λ-conditioned sweep's draw, train.DefaultDraw). A
// reader of run folders that names the settings of a run which differ from
// fp train's (report/htmlreport's TrainCommand) is given these, so that it
// needs neither the trainer nor the scalarizations.
func CommandDefaults() runfolder.Config {
	c := DefaultConfig().Config
	c.Rho = scalarize.DefaultRho
	c.LambdaDraw = train.DefaultDraw
	return c
}
