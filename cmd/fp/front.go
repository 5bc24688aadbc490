package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

func init() { register(frontCommand()) }

func frontCommand() *cli.Command {
	return &cli.Command{
		Name:      "front",
		Usage:     "non-dominated counts, hypervolume and shares of the pooled front",
		ArgsUsage: "FILE_OR_DIR...",
		Description: "Reads the records of one or more sweeps (a directory stands for every *.jsonl file in it and\n" +
			"in its subdirectories) and prints, for each group of candidates (default: each method and\n" +
			"penalty), the number of candidates, the number of distinct non-dominated (risk, metric) points,\n" +
			"the hypervolume after min–max normalising both axes over all candidates (reference point\n" +
			"(1.1, 1.1)) and the share of the pooled front's points that the group reached. Failed candidates\n" +
			"are left out. To compare sweeps with different settings, name their files or folders separately:\n" +
			"one folder must not mix configurations.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric: " + strings.Join(records.Metrics, ", ")},
			&cli.StringFlag{Name: "by", Value: "method,penalty", Usage: "group candidates by a comma-separated list of " +
				strings.Join(records.GroupFields, ", ")},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runFront,
	}
}

func runFront(c *cli.Context) error {
	paths, err := argsAndFlags(c)
	if err != nil {
		return fmt.Errorf("front: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("front: name at least one records file or sweep directory")
	}
	metric := c.String("metric")
	if !slices.Contains(records.Metrics, metric) {
		return fmt.Errorf("front: --metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	by, err := records.ParseGrouping(c.String("by"))
	if err != nil {
		return fmt.Errorf("front: --by: %w", err)
	}
	recs, err := readCandidates(c, "front", paths)
	if err != nil {
		return err
	}
	groups, mixed := frontGroups(recs, by, metric)
	if slices.Contains(by, "method") {
		// Grouping by method says "one group per sweep": two sweeps of the
		// same method (say, two engines) pooled into one group are most
		// likely a mistake. Grouping by λ or split pools sweeps on purpose.
		for _, g := range mixed {
			fmt.Fprintf(c.App.ErrWriter, "fp: warning: group %s pools candidates of several sweep configurations "+
				"(separate them with --by, e.g. --by method,penalty,engine)\n", g)
		}
	}
	sums := pareto.Compare(groups)
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, sums)
	}
	if err := printFront(c.App.Writer, sums, metric, len(recs)); err != nil {
		return err
	}
	if line := overlapLine(recs); line != "" {
		fmt.Fprintln(c.App.Writer, line)
	}
	return nil
}

// readCandidates reads the records of paths (files or sweep folders),
// reports torn lines and left-out failed candidates on stderr, and returns
// the candidates that trained successfully; none at all is an error.
func readCandidates(c *cli.Context, cmd string, paths []string) ([]records.Record, error) {
	all, warnings, err := records.ReadAll(paths)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	for _, w := range warnings {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: %v\n", w)
	}
	recs, failed := records.Succeeded(all)
	if failed > 0 {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: %d failed candidate(s) left out\n", failed)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no successful candidate in %s", cmd, strings.Join(paths, ", "))
	}
	return recs, nil
}

// frontGroups turns records into (risk, metric) points per group, and lists
// the groups whose records come from more than one configuration.
func frontGroups(recs []records.Record, by records.Grouping, metric string) (map[string][]pareto.Point, []string) {
	groups := map[string][]pareto.Point{}
	configs := map[string]string{}
	var mixed []string
	for i := range recs {
		r := &recs[i]
		k := by.Key(r)
		v, _ := r.Metric(metric) // the name was checked by the caller
		groups[k] = append(groups[k], pareto.Point{X: r.Risk, Y: v})
		if c, seen := configs[k]; !seen {
			configs[k] = r.Config
		} else if c != r.Config && !slices.Contains(mixed, k) {
			mixed = append(mixed, k)
		}
	}
	slices.Sort(mixed)
	return groups, mixed
}

func printFront(w io.Writer, sums []pareto.Summary, metric string, n int) error {
	fmt.Fprintf(w, "risk vs %s over %d candidates; hypervolume with both axes min–max normalised over all of them, reference (%g, %g)\n",
		metric, n, pareto.Reference.X, pareto.Reference.Y)
	t := newTable(w)
	fmt.Fprintln(t, "group\tcandidates\tnondominated\thypervolume\tshare")
	for _, s := range sums {
		fmt.Fprintf(t, "%s\t%d\t%d\t%.4f\t%.3f\n", s.Group, s.Candidates, s.NonDominated, s.Hypervolume, s.Share)
	}
	return t.Flush()
}

// argsAndFlags returns the positional arguments of c after applying the
// command's flags that follow them: urfave/cli stops reading flags at the
// first argument, yet "fp front DIR --json" is the natural way to type a
// command over files. Everything after "--" is an argument.
func argsAndFlags(c *cli.Context) ([]string, error) {
	var args []string
	in := c.Args().Slice()
	for i := 0; i < len(in); i++ {
		a := in[i]
		if a == "--" {
			args = append(args, in[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var flag cli.Flag
		for _, f := range c.Command.Flags {
			if slices.Contains(f.Names(), name) {
				flag = f
			}
		}
		if flag == nil {
			return nil, fmt.Errorf("flag provided but not defined: %s", a)
		}
		if _, isBool := flag.(*cli.BoolFlag); isBool {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 == len(in) {
				return nil, fmt.Errorf("flag needs an argument: %s", a)
			}
			i++
			value = in[i]
		}
		if err := c.Set(name, value); err != nil {
			return nil, fmt.Errorf("flag %s: %w", a, err)
		}
	}
	return args, nil
}
