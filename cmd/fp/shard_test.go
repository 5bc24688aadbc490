package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/runfolder"
)

// The variables of a Slurm array task and of a Kubernetes Indexed Job.
const (
	envSlurmTaskID    = experiments.EnvSlurmTaskID
	envSlurmTaskMin   = experiments.EnvSlurmTaskMin
	envSlurmTaskMax   = experiments.EnvSlurmTaskMax
	envSlurmTaskStep  = experiments.EnvSlurmTaskStep
	envSlurmTaskCount = experiments.EnvSlurmTaskCount
	envJobIndex       = experiments.EnvJobIndex
)

// shardEnvNames are every variable resolveShard reads; each test case sets
// all of them (unset ones to "") so that the caller's environment — say, a
// test run inside a Slurm job — cannot leak in.
var shardEnvNames = []string{envSlurmTaskID, envSlurmTaskMin, envSlurmTaskMax, envSlurmTaskStep,
	envSlurmTaskCount, envJobIndex}

func setShardEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, k := range shardEnvNames {
		t.Setenv(k, env[k])
	}
}

type shardCase struct {
	name   string
	flag   string // --shard
	shards int    // --shards (0: not given)
	env    map[string]string
	want   experiments.Shard
	// wantErr lists substrings of the error; nil: no error.
	wantErr []string
}

func slurmEnv(id, lo, hi, step, count string) map[string]string {
	return map[string]string{envSlurmTaskID: id, envSlurmTaskMin: lo, envSlurmTaskMax: hi,
		envSlurmTaskStep: step, envSlurmTaskCount: count}
}

var shardCases = []shardCase{
	{name: "nothing", want: experiments.Shard{}},
	{name: "flag", flag: "2/5", want: experiments.Shard{Index: 2, Count: 5}},
	{name: "flag wins over Slurm", flag: "1/2", env: slurmEnv("3", "0", "3", "1", "4"),
		want: experiments.Shard{Index: 1, Count: 2}},
	{name: "flag index not below count", flag: "3/2", wantErr: []string{"--shard 3/2", "0 ≤ i < n = 2"}},
	{name: "flag zero shards", flag: "0/0", wantErr: []string{"--shard 0/0", "n ≥ 1"}},
	{name: "flag negative", flag: "-1/3", wantErr: []string{"--shard -1/3", "0 ≤ i"}},
	{name: "flag not i/n", flag: "two", wantErr: []string{`--shard "two"`, "want i/n"}},
	{name: "flag and shards", flag: "0/2", shards: 2, wantErr: []string{"--shard", "--shards", "not both"}},

	// Slurm: --array=0-3 → IDs 0…3, count 4.
	{name: "slurm 0-3 first", env: slurmEnv("0", "0", "3", "1", "4"), want: experiments.Shard{Index: 0, Count: 4}},
	{name: "slurm 0-3 last", env: slurmEnv("3", "0", "3", "1", "4"), want: experiments.Shard{Index: 3, Count: 4}},
	// --array=1-4 → IDs 1…4.
	{name: "slurm 1-4", env: slurmEnv("4", "1", "4", "1", "4"), want: experiments.Shard{Index: 3, Count: 4}},
	// --array=0-6:2 → IDs 0, 2, 4, 6, count 4.
	{name: "slurm step 2", env: slurmEnv("4", "0", "6", "2", "4"), want: experiments.Shard{Index: 2, Count: 4}},
	{name: "slurm step unset is 1", env: slurmEnv("2", "1", "", "", "3"), want: experiments.Shard{Index: 1, Count: 3}},
	{name: "slurm off the lattice", env: slurmEnv("3", "0", "", "2", "4"),
		wantErr: []string{envSlurmTaskID + "=3", envSlurmTaskMin, envSlurmTaskStep, "0 + k·2"}},
	{name: "slurm below MIN", env: slurmEnv("0", "1", "", "1", "4"),
		wantErr: []string{envSlurmTaskID + "=0", envSlurmTaskMin}},
	{name: "slurm index not below count", env: slurmEnv("9", "0", "", "1", "4"),
		wantErr: []string{envSlurmTaskID + "=9", envSlurmTaskCount + "=4", "give the number of shards"}},
	{name: "slurm array starting at 1 without MIN", env: slurmEnv("1", "", "", "", "4"),
		wantErr: []string{envSlurmTaskID + "=1", envSlurmTaskMin + " is not"}},
	{name: "slurm without COUNT", env: slurmEnv("1", "0", "", "", ""),
		wantErr: []string{envSlurmTaskCount + " is not"}},
	{name: "slurm list", env: slurmEnv("3", "3", "7", "1", "2"),
		wantErr: []string{"not a range", envSlurmTaskMax + "=7", "--array=3,7", "give the number of shards"}},
	{name: "slurm ID not a number", env: slurmEnv("x", "0", "", "", "4"), wantErr: []string{envSlurmTaskID + `="x"`}},
	{name: "slurm zero step", env: slurmEnv("1", "0", "", "0", "4"), wantErr: []string{envSlurmTaskStep + `="0"`}},
	// With --shards N the task ID is the index: resubmitting --array=1 of
	// a 3-task array is shard 1/3, not 0/1.
	{name: "slurm resubmission with shards", shards: 3, env: slurmEnv("1", "1", "1", "1", "1"),
		want: experiments.Shard{Index: 1, Count: 3}},
	{name: "slurm ID beyond shards", shards: 3, env: slurmEnv("3", "0", "3", "1", "4"),
		wantErr: []string{envSlurmTaskID + "=3", "3 shards", "0…2"}},

	// Kubernetes Indexed Job.
	{name: "indexed job", shards: 4, env: map[string]string{envJobIndex: "3"}, want: experiments.Shard{Index: 3, Count: 4}},
	{name: "indexed job without shards", env: map[string]string{envJobIndex: "0"},
		wantErr: []string{envJobIndex + "=0", "the number of shards is not"}},
	{name: "indexed job index too large", shards: 4, env: map[string]string{envJobIndex: "4"},
		wantErr: []string{envJobIndex + "=4", "4 shards"}},
	{name: "indexed job negative", shards: 4, env: map[string]string{envJobIndex: "-1"},
		wantErr: []string{envJobIndex + `="-1"`}},
	{name: "shards without an index", shards: 4, wantErr: []string{"--shards 4", envSlurmTaskID, envJobIndex}},
	{name: "Slurm and Kubernetes at once", shards: 2,
		env:     map[string]string{envSlurmTaskID: "0", envJobIndex: "1"},
		wantErr: []string{envSlurmTaskID, envJobIndex}},
}

func checkShardErr(t *testing.T, err error, got experiments.Shard, tc shardCase) {
	t.Helper()
	if tc.wantErr == nil {
		if err != nil {
			t.Fatalf("error %v, want shard %v", err, tc.want)
		}
		if got != tc.want {
			t.Fatalf("shard %+v, want %+v", got, tc.want)
		}
		return
	}
	if err == nil {
		t.Fatalf("shard %+v, want an error containing %q", got, tc.wantErr)
	}
	oneLine(t, err.Error())
	for _, s := range tc.wantErr {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
}

func TestResolveShard(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.name, func(t *testing.T) {
			setShardEnv(t, tc.env)
			ch, err := experiments.ResolveShard(tc.flag, tc.shards, os.Getenv)
			checkShardErr(t, err, ch.Shard, tc)
		})
	}
}

// TestTrainTakesShardFromEnvironment runs fp train itself: an accepted
// shard trains exactly that shard's splits into its records file, a refused
// one stops before anything is written.
func TestTrainTakesShardFromEnvironment(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.name, func(t *testing.T) {
			setShardEnv(t, tc.env)
			out := filepath.Join(t.TempDir(), "run")
			args := []string{"train", "--splits", "5", "--lambdas", "0,1", "--epochs", "1", "--propensity-epochs", "1",
				"--engine", "backprop", "--workers", "1", "--quiet", "--no-plot", "--out", out}
			if tc.flag != "" {
				args = append(args, "--shard", tc.flag)
			}
			if tc.shards != 0 {
				args = append(args, "--shards", strconv.Itoa(tc.shards))
			}
			_, _, err := runFP(t, args...)
			if tc.wantErr != nil {
				checkShardErr(t, err, experiments.Shard{}, tc)
				if _, serr := os.Stat(out); serr == nil {
					t.Errorf("a refused shard created %s", out)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			recs := readRecords(t, out)
			files, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
			if len(files) != 1 || filepath.Base(files[0]) != runfolder.RecordsFile(tc.want) {
				t.Errorf("records files %v, want only %s", files, runfolder.RecordsFile(tc.want))
			}
			var want []int
			for m := range 5 {
				if tc.want.Owns(m) {
					want = append(want, m, m) // λ = 0 and λ = 1
				}
			}
			var got []int
			for _, r := range recs {
				got = append(got, r.Split)
			}
			if !slices.Equal(got, want) {
				t.Errorf("trained splits %v, want %v (shard %v)", got, want, tc.want)
			}
		})
	}
}

// TestTrainRefusesResubmittedArrayWithoutShards: resubmitting one task of a
// 3-task array is an array of its own (one task); without --shards it would
// be shard 0/1 and train the other shards' splits, so it is refused.
func TestTrainRefusesResubmittedArrayWithoutShards(t *testing.T) {
	out := t.TempDir()
	args := []string{"train", "--splits", "3", "--lambdas", "0,1", "--epochs", "1", "--propensity-epochs", "1",
		"--engine", "backprop", "--workers", "1", "--quiet", "--no-plot", "--out", out}
	setShardEnv(t, nil)
	if _, _, err := runFP(t, append(args, "--shard", "0/3")...); err != nil {
		t.Fatal(err)
	}
	setShardEnv(t, slurmEnv("1", "1", "1", "1", "1"))
	_, _, err := runFP(t, args...)
	if err == nil {
		t.Fatal("a resubmitted task without --shards was accepted")
	}
	oneLine(t, err.Error())
	for _, s := range []string{"shard 0/1", "3 shards", "records-shard-0-of-3.jsonl", "--shards 3"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	// The same task with --shards 3 is shard 1/3.
	if _, _, err := runFP(t, append(args, "--shards", "3")...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "records-shard-1-of-3.jsonl")); err != nil {
		t.Errorf("resubmission with --shards 3: %v", err)
	}
}

func TestShardsFlagMustBePositive(t *testing.T) {
	setShardEnv(t, map[string]string{envJobIndex: "0"})
	_, _, err := runFP(t, "train", "--shards", "0", "--quiet", "--out", filepath.Join(t.TempDir(), "x"))
	if err == nil || !strings.Contains(err.Error(), "--shards 0") {
		t.Fatalf("--shards 0: err = %v, want a refusal naming --shards 0", err)
	}
	oneLine(t, err.Error())
}
