package enginebench

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText prints res as a plain-text table with each engine's speed
// relative to the graph engine, then the GOMAXPROCS the figures were taken
// with.
func WriteText(w io.Writer, res []Result) error {
	var base float64
	for _, r := range res {
		if r.Engine == "graph" {
			base = r.USPerStep
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tENGINE\tBLAS\tARCH\tBATCH\tSTEPS\tµs/STEP\tALLOCS/STEP\tKB/STEP\tSPEED-UP")
	for _, r := range res {
		speed := "-"
		if base > 0 {
			speed = fmt.Sprintf("%.1f×", base/r.USPerStep)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%.1f\t%.0f\t%.1f\t%s\n", r.Dataset, r.Engine, r.BLAS, r.Arch, r.Batch,
			r.Steps, r.USPerStep, r.AllocsPerStep, r.BytesPerStep/1024, speed)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(res) > 0 {
		_, err := fmt.Fprintf(w, "GOMAXPROCS=%d; figures are wall-clock time and depend on the machine's load\n", res[0].GOMAXPROCS)
		return err
	}
	return nil
}
