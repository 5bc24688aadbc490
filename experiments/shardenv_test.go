package experiments

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestShardFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	slurm := func(id, lo, hi, step, count string) func(string) string {
		return env(EnvSlurmTaskID, id, EnvSlurmTaskMin, lo, EnvSlurmTaskMax, hi, EnvSlurmTaskStep, step, EnvSlurmTaskCount, count)
	}
	for _, tc := range []struct {
		name    string
		shards  int
		getenv  func(string) string
		want    ShardChoice
		wantErr string
	}{
		{name: "nothing", getenv: env()},
		{name: "nothing with a count", shards: 3, getenv: env()},
		{name: "slurm step 2", getenv: slurm("4", "0", "6", "2", "4"), want: ShardChoice{Shard: Shard{Index: 2, Count: 4}, From: ShardFromSlurm,
			Detail: "SLURM_ARRAY_TASK_ID=4, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_STEP=2, SLURM_ARRAY_TASK_COUNT=4", CountFromArray: true}},
		{name: "slurm resubmission with a count", shards: 3, getenv: slurm("1", "1", "1", "1", "1"),
			want: ShardChoice{Shard: Shard{Index: 1, Count: 3}, From: ShardFromSlurm, Detail: "SLURM_ARRAY_TASK_ID=1 of 3 shards"}},
		{name: "slurm list", getenv: slurm("3", "3", "7", "1", "2"), wantErr: "not a range"},
		{name: "indexed job", shards: 4, getenv: env(EnvJobIndex, "3"),
			want: ShardChoice{Shard: Shard{Index: 3, Count: 4}, From: ShardFromK8s, Detail: "JOB_COMPLETION_INDEX=3 of 4 shards"}},
		{name: "indexed job without a count", getenv: env(EnvJobIndex, "3"), wantErr: "JOB_COMPLETION_INDEX=3 is set but the number of shards is not"},
		{name: "both", shards: 2, getenv: env(EnvJobIndex, "1", EnvSlurmTaskID, "0"), wantErr: "both"},
		{name: "negative count", shards: -1, getenv: env(), wantErr: "-1 shards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ShardFromEnv(tc.shards, tc.getenv)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// ShardCounts, the Slurm-resubmission guard's view of a folder, reads any
// folder name literally: one holding the characters of file-name patterns
// ([, ], \) too, never matched as a pattern.
func TestShardCounts(t *testing.T) {
	for _, name := range []string{"run", "g[1]", `a\b`, "*"} {
		t.Run(name, func(t *testing.T) { testShardCounts(t, filepath.Join(t.TempDir(), name)) })
	}
}

func testShardCounts(t *testing.T, dir string) {
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"records-shard-0-of-3.jsonl", "records-shard-2-of-3.jsonl", "records-shard-1-of-2.jsonl", "records.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := ShardCounts(dir)
	if len(got) != 2 || got[2] != "records-shard-1-of-2.jsonl" || !strings.HasSuffix(got[3], "-of-3.jsonl") {
		t.Errorf("ShardCounts = %v", got)
	}
	if got := ShardCounts(filepath.Join(dir, "none")); !reflect.DeepEqual(got, map[int]string{}) {
		t.Errorf("ShardCounts of a missing folder = %v", got)
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Shard
		wantErr string
	}{
		{in: "2/5", want: Shard{Index: 2, Count: 5}},
		{in: " 0 / 1 ", want: Shard{Index: 0, Count: 1}},
		{in: "3/2", wantErr: "3/2: shard index i = 3, want 0 ≤ i < n = 2"},
		{in: "0/0", wantErr: "the number of shards n = 0"},
		{in: "-1/3", wantErr: "0 ≤ i"},
		{in: "two", wantErr: `"two": want i/n`},
	} {
		got, err := ParseShard(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseShard(%q): err = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want || got.String() != strings.ReplaceAll(tc.in, " ", "") {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
