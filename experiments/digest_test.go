package experiments_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/runfolder"
)

// The digest names the configuration of every record ever written: the
// committed run folders under results/ must keep theirs, both as their
// config.json gives it and as their records carry it.
func TestDigestsOfCommittedRunsAreReproduced(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir(filepath.Join("..", "results"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == runfolder.ConfigFile {
			dirs = append(dirs, filepath.Dir(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no run folder with a config.json under results/")
	}
	for _, dir := range dirs {
		c, err := experiments.ReadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		// Written again, the configuration is the same bytes.
		b, err := os.ReadFile(filepath.Join(dir, runfolder.ConfigFile))
		if err != nil {
			t.Fatal(err)
		}
		again, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if string(append(again, '\n')) != string(b) {
			t.Errorf("%s: config.json written again differs:\n%s\nwant\n%s", dir, again, b)
		}
		got := c.Digest()
		if rc, err := runfolder.ReadConfig(dir); err != nil || rc.Digest() != got {
			t.Errorf("%s: runfolder.ReadConfig gives digest %s (%v), experiments.ReadConfig %s", dir, rc.Digest(), err, got)
		}
		recs, _, err := runfolder.ReadAll([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			t.Errorf("%s: no records", dir)
		}
		for _, r := range recs {
			if r.Config != got {
				t.Errorf("%s: config.json's digest is %s, its record %s says %s", dir, got, r.Key(), r.Config)
				break
			}
		}
	}
	t.Logf("%d run folders", len(dirs))
}

// The settings that are not stored stay out of config.json and the digest.
func TestUnstoredSettingsAreNotStored(t *testing.T) {
	c := experiments.DefaultConfig()
	want, err := json.Marshal(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	digest := c.Digest()
	c.Workers, c.Shard, c.Args = 7, experiments.Shard{Index: 1, Count: 3}, []string{"fp", "train"}
	got, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || c.Digest() != digest {
		t.Errorf("stored as\n%s\nwant\n%s", got, want)
	}
}
