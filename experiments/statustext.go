package experiments

import (
	"fmt"
	"github.com/fpareto/fp/runfolder"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// lambdaText shows λ briefly; the JSON output has the exact values.
func lambdaText(l float64) string { return strconv.FormatFloat(l, 'g', 4, 64) }

// WriteText prints rep as fp status shows it: a summary line, a table per
// shard and overall, then the failed, duplicate, unexpected and missing
// candidates, and how to train the missing ones.
func (rep *StatusReport) WriteText(w io.Writer) error {
	cfg := rep.Config
	name := cfg.Dataset
	if cfg.CSV != "" {
		name = cfg.CSV
	}
	if cfg.Preset != "" {
		name += " (" + cfg.Preset + ")"
	}
	what := cfg.Method + " " + cfg.Penalty
	if cfg.Method == MethodAdversarial {
		what = fmt.Sprintf("adversarial (β = %g × λ)", cfg.betaScale())
		if cfg.AdvClfSteps > 1 {
			what = fmt.Sprintf("adversarial (β = %g × λ, %d classifier steps per round)", cfg.betaScale(), cfg.AdvClfSteps)
		}
	}
	fmt.Fprintf(w, "%s: %s %s, %d splits × %d λ (%s) = %d candidates, %d epochs, seed %d, engine %s (config %s)\n",
		rep.Dir, name, what, cfg.Splits, rep.PerSplit, cfg.Lambdas, rep.Overall.Expected,
		cfg.Epochs, cfg.Seed, cfg.Engine, rep.Digest)
	if n := len(rep.EvalOnly); n > 0 {
		fmt.Fprintf(w, "conditioned: one network per split, recorded at the grid's λ and at %d more of --eval-lambdas %s (eval_only: %d/%d recorded, left out of comparisons with other sweeps)\n",
			n, cfg.EvalLambdas, rep.Overall.EvalOnlyDone, rep.Overall.EvalOnlyExpected)
	} else if cfg.Conditioned {
		fmt.Fprintf(w, "conditioned: one network per split, recorded at the grid's λ in (0, 1)\n")
	}
	if cfg.Conditioned && cfg.conditionedEpochs() != cfg.Epochs {
		fmt.Fprintf(w, "the conditioned networks train %d epochs, the λ = 0 and λ = 1 networks %d\n", cfg.conditionedEpochs(), cfg.Epochs)
	}
	if cfg.Conditioned && cfg.ConditionedArch != "" {
		fmt.Fprintf(w, "the conditioned networks are %s, the λ = 0 and λ = 1 networks %s\n", cfg.ConditionedArch, cfg.Arch)
	}
	if cfg.Conditioned && cfg.LambdasPerStep > 1 {
		fmt.Fprintf(w, "the conditioned networks train each step at %d λ\n", cfg.LambdasPerStep)
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	runfolder.WriteOverlaps(w, rep.Overlap)

	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(t, "shard\tdone/expected\tfailed\tmissing\trecords file")
	row := func(label string, p *Progress, file string) {
		fmt.Fprintf(t, "%s\t%d/%d\t%d\t%d\t%s\n", label, p.Done, p.Expected, len(p.Failed), len(p.Missing), file)
	}
	for i := range rep.PerShard {
		sh := &rep.PerShard[i]
		file := sh.File
		if file == "" {
			file = "(none yet)"
		}
		row(fmt.Sprintf("%d/%d", sh.Index, sh.Count), &sh.Progress, file)
	}
	var files []string
	for _, f := range rep.Files {
		files = append(files, fmt.Sprintf("%s (%d)", f.Name, f.Records))
	}
	all := strings.Join(files, ", ")
	if all == "" {
		all = "(none yet)"
	}
	if len(rep.PerShard) > 0 {
		all = fmt.Sprintf("%d files", len(rep.Files))
	}
	row("all", &rep.Overall, all)
	if err := t.Flush(); err != nil {
		return err
	}

	shardOf := func(m int) string {
		if rep.Shards == 0 {
			return ""
		}
		return fmt.Sprintf(" (shard %d/%d)", m%rep.Shards, rep.Shards)
	}
	if len(rep.Overall.Failed) > 0 {
		fmt.Fprintf(w, "\nfailed (recorded; resuming does not train them again):\n")
		for _, f := range rep.Overall.Failed {
			epoch := ""
			if f.Epoch > 0 {
				epoch = fmt.Sprintf(" at epoch %d", f.Epoch)
			}
			fmt.Fprintf(w, "  split %d%s, λ = %s%s: %s [%s]\n", f.Split, shardOf(f.Split), lambdaText(f.Lambda), epoch, f.Reason, f.Key)
		}
	}
	if len(rep.Overall.Duplicates) > 0 {
		fmt.Fprintf(w, "\nrecorded more than once (the same shard ran twice at once; the last record counts):\n")
		for _, d := range rep.Overall.Duplicates {
			fmt.Fprintf(w, "  split %d%s, λ = %s [%s]\n", d.Split, shardOf(d.Split), lambdaText(d.Lambda), d.Key)
		}
	}
	if len(rep.Unexpected) > 0 {
		fmt.Fprintf(w, "\nrecorded but not in the sweep's splits × grid:\n")
		for _, d := range rep.Unexpected {
			fmt.Fprintf(w, "  %s\n", d.Key)
		}
	}
	if len(rep.Overall.Missing) == 0 {
		fmt.Fprintf(w, "\ncomplete: every candidate is recorded\n")
		return nil
	}
	// Missing candidates, one line per split.
	fmt.Fprintf(w, "\nmissing:\n")
	miss := rep.Overall.Missing
	for i := 0; i < len(miss); {
		j := i
		var ls []string
		adaptive := 0
		for ; j < len(miss) && miss[j].Split == miss[i].Split; j++ {
			if miss[j].Adaptive {
				adaptive++
				continue
			}
			ls = append(ls, lambdaText(miss[j].Lambda))
		}
		if adaptive > 0 {
			ls = append(ls, fmt.Sprintf("%d adaptive λ not chosen yet", adaptive))
		}
		what := "λ = " + strings.Join(ls, ", ")
		if j-i == rep.PerSplit {
			what = fmt.Sprintf("all %d λ (%s)", j-i, strings.Join(ls, ", "))
		}
		fmt.Fprintf(w, "  split %d%s: %s\n", miss[i].Split, shardOf(miss[i].Split), what)
		i = j
	}
	if rep.Shards == 0 {
		fmt.Fprintf(w, "\nto train them, run the same fp train command again (finished candidates are kept)\n")
	}
	if inc := rep.IncompleteShards(); len(inc) > 0 {
		ids := make([]string, len(inc))
		for i, s := range inc {
			ids[i] = strconv.Itoa(s)
		}
		fmt.Fprintf(w, "\nincomplete shards: %s; once their tasks have ended, run them again, e.g.\n"+
			"  FP_SHARDS=%d sbatch --array=%s deploy/slurm/fp-array.sbatch\n",
			strings.Join(ids, ","), rep.Shards, strings.Join(ids, ","))
	}
	return nil
}
