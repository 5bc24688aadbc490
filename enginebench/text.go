package enginebench

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText prints res as a plain-text table with each engine's speed
// relative to the graph engine, then the GOMAXPROCS the figures were taken
// with, and, when sweep is not empty, the sweep throughput table. Times
// and speed-ups are medians over the repeats, each followed by the range
// (min–max) the repeats gave.
func WriteText(w io.Writer, res []Result, sweep []SweepResult) error {
	var base float64
	for _, r := range res {
		if r.Engine == "graph" {
			base = r.USPerStep
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tENGINE\tBLAS\tKERNEL\tARCH\tBATCH\tSTEPS\tREPEATS\tµs/STEP\tMIN–MAX\tALLOCS/STEP\tKB/STEP\tSPEED-UP")
	for _, r := range res {
		speed := "-"
		if base > 0 {
			speed = fmt.Sprintf("%.1f×", base/r.USPerStep)
		}
		kernel := r.Kernel
		if kernel == "" {
			kernel = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%.1f\t%s\t%.0f\t%.1f\t%s\n", r.Dataset, r.Engine, r.BLAS, kernel, r.Arch, r.Batch,
			r.Steps, r.Repeats, r.USPerStep, rangeOf(r.USPerStepSpread, "%.1f"), r.AllocsPerStep, r.BytesPerStep/1024, speed)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(res) > 0 {
		if _, err := fmt.Fprintf(w, "GOMAXPROCS=%d; figures are wall-clock time and depend on the machine's load\n", res[0].GOMAXPROCS); err != nil {
			return err
		}
	}
	if len(sweep) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tENGINE\tARCH\tNETWORKS\tSTEPS/NET\tWORKERS\tREPEATS\tSECONDS\tNETWORKS/S\t1-WORKER SECONDS\tSPEED-UP\tMIN–MAX")
	for _, r := range sweep {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.3g\t%.2f\t%.3g\t%.2f×\t%s\n", r.Dataset, r.Engine, r.Arch, r.Networks,
			r.StepsPerNetwork, r.Workers, r.Repeats, r.Seconds, r.NetworksPerSec, r.OneWorkerSec, r.Speedup, rangeOf(r.SpeedupSpread, "%.2f×"))
	}
	return tw.Flush()
}

// rangeOf writes a spread's minimum and maximum in format f, "-" when
// there is none.
func rangeOf(s Spread, f string) string {
	if s.Min == 0 && s.Max == 0 {
		return "-"
	}
	return fmt.Sprintf(f+"–"+f, s.Min, s.Max)
}
