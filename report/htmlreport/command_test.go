package htmlreport_test

import (
	"strings"
	"testing"

	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// The command that remakes a cheb-aug run names its ρ unless it is the
// default, and never names one for the other methods.
func TestTrainCommandRho(t *testing.T) {
	d := runfolder.Config{Dataset: "compas", Method: "cheb", Penalty: "ato-penultimate", Splits: 2, Lambdas: "log:15", Epochs: 500, Rho: 0.01}
	for _, c := range []struct {
		method string
		rho    float64
		want   string
		not    string
	}{
		{"cheb-aug", 0.05, "--method cheb-aug --rho 0.05", ""},
		{"cheb-aug", 0.01, "--method cheb-aug", "--rho"},
		{"cheb", 0, "", "--rho"},
	} {
		cfg := d
		cfg.Method, cfg.Rho = c.method, c.rho
		got := htmlreport.TrainCommand(cfg, d, "runs/x")
		if !strings.Contains(got, c.want) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("%s ρ %g: %q", c.method, c.rho, got)
		}
	}
}
