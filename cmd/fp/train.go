package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/progress"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/runfolder/configfile"
)

func init() { register(trainCommand()) }

// trainFlags holds the values fp train's flags bind to: the stored settings
// (runfolder.Settings) in cfg, a list setting's comma-separated text in
// lists, and the settings that are not stored.
type trainFlags struct {
	cfg     runfolder.Config
	lists   map[string]*string // by flag
	workers int
}

func trainCommand() *cli.Command {
	cmd, _ := newTrainCommand()
	return cmd
}

// newTrainCommand returns fp train and what its flags bind to.
func newTrainCommand() (*cli.Command, *trainFlags) {
	tf := &trainFlags{lists: map[string]*string{}}
	d := experiments.DefaultConfig()
	flags := []cli.Flag{
		&cli.StringFlag{Name: "config", TakesFile: true,
			Usage: "read settings from a YAML, TOML or JSON `FILE` (a run's config.json); flags win"},
	}
	for _, s := range runfolder.Settings {
		flags = append(flags, tf.flag(s, &d.Config))
	}
	flags = append(flags,
		&cli.IntFlag{Name: "workers", Category: runfolder.CategoryTraining, Destination: &tf.workers, DefaultText: "one per CPU",
			Usage: "`N` candidates trained at once; changes no result"},
		&cli.StringFlag{Name: "shard", Category: runfolder.CategoryTraining, DefaultText: "from a Slurm array",
			Usage: "run shard `i/n` only: the splits m with m mod n = i"},
		&cli.IntFlag{Name: "shards", Category: runfolder.CategoryTraining, DefaultText: "from a Slurm array",
			Usage: "the sweep has `N` shards; this run is the job's index"},
		&cli.StringFlag{Name: "out", Category: runfolder.CategoryOutput, DefaultText: "runs/DATASET-METHOD-PENALTY",
			Usage: "output `DIR`; the same command resumes"},
		&cli.StringFlag{Name: "metric", Category: runfolder.CategoryOutput, Value: "ato",
			Usage: "unfairness `METRIC` of the front shown: ato, dp, eo or eopp"},
		&cli.StringFlag{Name: "decide-on", Category: runfolder.CategoryOutput, DefaultText: "selection if possible",
			Usage: "`ROWS` that decide the front: selection or test"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Category: runfolder.CategoryOutput, Usage: "no progress output"},
		&cli.BoolFlag{Name: "no-plot", Category: runfolder.CategoryOutput, Usage: "do not draw the front figure at the end"},
		&cli.BoolFlag{Name: jsonFlag, Category: runfolder.CategoryOutput, Usage: "print the summary and the front at the end as JSON"},
	)
	cmd := &cli.Command{
		Name:  "train",
		Usage: "find the fairness–accuracy Pareto front: networks over splits × λ (Algorithm 1)",
		Description: "Trains one network per split and λ on the Chebyshev (or linear) scalarization of risk and\n" +
			"unfairness, scores each on its test split, appends one record per candidate to OUT/records.jsonl,\n" +
			"stores each network under OUT/networks, and ends with the front. Rerunning the same command\n" +
			"resumes: finished candidates are kept. Ctrl-C stops after writing what has finished.\n" +
			"docs/settings.md describes every setting.",
		Flags: flags,
		Before: func(c *cli.Context) error {
			path := c.String("config")
			if path == "" {
				return nil
			}
			return applyConfigFile(c, path)
		},
		Action: func(c *cli.Context) error { return runTrain(c, tf) },
	}
	return cmd, tf
}

// flag is the flag of the setting s, bound to its field of tf.cfg (a list's
// to its text in tf.lists), with its default from s.Default or d.
func (tf *trainFlags) flag(s runfolder.Setting, d *runfolder.Config) cli.Flag {
	def := s.Default
	if def == nil {
		def = s.Value(d)
	}
	switch p := s.Field(&tf.cfg).(type) {
	case *string:
		return &cli.StringFlag{Name: s.Flag, Category: s.Category, Usage: s.Usage, DefaultText: s.DefaultText, Value: def.(string), Destination: p}
	case *int:
		return &cli.IntFlag{Name: s.Flag, Category: s.Category, Usage: s.Usage, DefaultText: s.DefaultText, Value: def.(int), Destination: p}
	case *uint64:
		return &cli.Uint64Flag{Name: s.Flag, Category: s.Category, Usage: s.Usage, DefaultText: s.DefaultText, Value: def.(uint64), Destination: p}
	case *float64:
		return &cli.Float64Flag{Name: s.Flag, Category: s.Category, Usage: s.Usage, DefaultText: s.DefaultText, Value: def.(float64), Destination: p}
	case *bool:
		return &cli.BoolFlag{Name: s.Flag, Category: s.Category, Usage: s.Usage, DefaultText: s.DefaultText, Value: def.(bool), Destination: p}
	case *[]string:
		text := new(string)
		tf.lists[s.Flag] = text
		return &cli.StringFlag{Name: s.Flag, Category: s.Category, Usage: s.Usage, DefaultText: s.DefaultText, Value: runfolder.FormatList(def.([]string)), Destination: text}
	}
	panic(fmt.Sprintf("setting %s: a field of type %T", s.Flag, s.Field(&tf.cfg)))
}

// config builds the sweep's configuration from the flags bound in tf.
func (tf *trainFlags) config(c *cli.Context) (experiments.Config, error) {
	lists := map[string]string{}
	for flag, text := range tf.lists {
		lists[flag] = *text
	}
	cfg, err := experiments.FromSettings(tf.cfg, lists, c.IsSet)
	if err != nil {
		return cfg, err
	}
	cfg.Workers = tf.workers
	cfg.Args = os.Args
	sh, err := shardFromContext(c, cfg)
	if err != nil {
		return cfg, err
	}
	cfg.Shard = sh
	return cfg, nil
}

// configMeta is the key under which the Before of fp train leaves the
// config file read, whose coding and data_id runTrain checks against the
// data.
const configMeta = "config-file"

// applyConfigFile sets the flags of c that the command line left unset from
// the --config file at path.
func applyConfigFile(c *cli.Context, path string) error {
	var names [][]string
	for _, f := range c.Command.Flags {
		names = append(names, f.Names())
	}
	file, err := configfile.Read(path, configfile.Keys(names))
	if err != nil {
		return err
	}
	if err := file.Apply(c.IsSet, c.Set); err != nil {
		return err
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[configMeta] = file
	return nil
}

func runTrain(c *cli.Context, tf *trainFlags) error {
	cfg, err := tf.config(c)
	if err != nil {
		return err
	}
	if file, _ := c.App.Metadata[configMeta].(*configfile.File); file != nil {
		if err := file.CheckData(cfg.Config); err != nil {
			return err
		}
	}
	// The metric of the front shown at the end is checked before training,
	// not after the sweep.
	if m := c.String("metric"); !slices.Contains(records.Metrics, m) {
		return fmt.Errorf("--metric %q: want one of %s", m, strings.Join(records.Metrics, ", "))
	}
	if _, err := records.ParseDecide(c.String("decide-on")); err != nil {
		return fmt.Errorf("--decide-on: %w", err)
	}
	out := c.String("out")
	if out == "" {
		out = experiments.DefaultOut(cfg)
	}
	var obs experiments.Observer = progress.Warnings{W: c.App.ErrWriter}
	if !c.Bool("quiet") {
		obs = progress.New(c.App.ErrWriter)
	}
	runner, err := experiments.NewRunner(cfg, out, obs)
	if err != nil {
		return experiments.AsFlagError(err)
	}
	defer runner.Close()
	if line := runner.CodingLine(); line != "" {
		// A CSV's 0/1 coding follows a rule; say what it made of this file.
		w := c.App.Writer
		if c.Bool(jsonFlag) {
			w = c.App.ErrWriter // standard output is the JSON document
		}
		fmt.Fprintln(w, line)
	}
	for _, s := range runner.Warnings() {
		fmt.Fprintln(c.App.ErrWriter, "warning: "+s)
	}
	if mem := runner.Memory(); mem.Need > 0 {
		if !c.Bool("quiet") {
			fmt.Fprintln(c.App.ErrWriter, "memory: "+mem.String())
		}
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(mem.SoftLimit())
		}
	}

	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C ends the process at once
	}()
	sum, err := runner.Run(ctx)
	if p, ok := obs.(*progress.Sweep); ok {
		p.Finish()
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %d candidates recorded in %s; run the same command again to resume", sum.Resumed+sum.Trained, sum.Records)
	}
	if err != nil {
		return err
	}
	return showTrained(c, sum, out)
}
