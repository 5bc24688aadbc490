package runfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fpareto/fp/model"
)

// staleTopLevel is how long before a run takes its records lock a
// temporary file at the top of the folder must have been last written to
// count as left by a killed process: there another shard, or fp report,
// may be writing at the same time, and no write takes this long.
const staleTopLevel = time.Minute

// RemoveStaleTemps removes the temporary files (model.IsTempName) that
// atomic writes of a killed run left in out. The caller holds the shard's
// records lock, so no other process writes into the folders of the splits
// the shard owns (networks/split-NNN, splits/split-NNN): every temporary
// file there is stale. At the top of the folder, which every shard shares,
// only those last written staleTopLevel before lockedAt are. Only fp's own
// temporary names are touched; it returns how many files it removed.
func RemoveStaleTemps(out string, splits int, shard Shard, lockedAt time.Time) (int, error) {
	n := 0
	remove := func(dir string, stale func(fs.FileInfo) bool) error {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !model.IsTempName(e.Name()) {
				continue
			}
			info, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			if !stale(info) {
				continue
			}
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			n++
		}
		return nil
	}
	always := func(fs.FileInfo) bool { return true }
	for m := 0; m < splits; m++ {
		if !shard.Owns(m) {
			continue
		}
		split := filepath.Base(SplitDir(out, m))
		for _, dir := range []string{filepath.Join(out, "networks", split), filepath.Join(out, "splits", split)} {
			if err := remove(dir, always); err != nil {
				return n, fmt.Errorf("remove stale temporary files: %w", err)
			}
		}
	}
	old := func(info fs.FileInfo) bool { return info.ModTime().Before(lockedAt.Add(-staleTopLevel)) }
	if err := remove(out, old); err != nil {
		return n, fmt.Errorf("remove stale temporary files: %w", err)
	}
	return n, nil
}
