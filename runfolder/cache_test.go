package runfolder

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestCacheWritesAndSkips(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) string // the run folder
		file  string
		ok    bool
	}{
		{"a run folder", func(t *testing.T) string { return t.TempDir() }, "intervals.json", true},
		{"the cache folder exists", func(t *testing.T) string {
			dir := t.TempDir()
			must(t, os.Mkdir(filepath.Join(dir, CacheDir), 0o755))
			return dir
		}, "intervals.json", true},
		{"a file where the cache folder goes", func(t *testing.T) string {
			dir := t.TempDir()
			must(t, os.WriteFile(filepath.Join(dir, CacheDir), nil, 0o644))
			return dir
		}, "intervals.json", false},
		{"no run folder", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing") }, "intervals.json", false},
		{"a path, not a name", func(t *testing.T) string { return t.TempDir() }, "../config.json", false},
		{"a hidden name", func(t *testing.T) string { return t.TempDir() }, ".x", false},
		{"no name", func(t *testing.T) string { return t.TempDir() }, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.setup(t)
			_, before := os.Stat(dir)
			if ok := WriteCache(dir, tc.file, []byte("1")); ok != tc.ok {
				t.Fatalf("WriteCache = %v, want %v", ok, tc.ok)
			}
			b, ok := ReadCache(dir, tc.file)
			if ok != tc.ok || (ok && string(b) != "1") {
				t.Errorf("ReadCache = %q, %v; want %v", b, ok, tc.ok)
			}
			if _, after := os.Stat(dir); (before == nil) != (after == nil) {
				t.Error("WriteCache made the run folder")
			}
			if names := cacheFiles(t, dir); tc.ok && !slices.Equal(names, []string{tc.file}) || !tc.ok && len(names) > 0 {
				t.Errorf("the cache folder holds %v", names)
			}
		})
	}
}

// Writers at once never leave a mix of their contents, nor temporary
// files.
func TestCacheWritersAtOnce(t *testing.T) {
	dir := t.TempDir()
	contents := make([][]byte, 8)
	for i := range contents {
		contents[i] = bytes.Repeat([]byte(fmt.Sprint(i)), 1<<16)
	}
	var wg sync.WaitGroup
	for _, c := range contents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !WriteCache(dir, "big", c) {
				t.Error("WriteCache failed")
			}
		}()
	}
	wg.Wait()
	b, ok := ReadCache(dir, "big")
	if !ok || !slices.ContainsFunc(contents, func(c []byte) bool { return bytes.Equal(b, c) }) {
		t.Errorf("read %d bytes, not one writer's content", len(b))
	}
	if names := cacheFiles(t, dir); !slices.Equal(names, []string{"big"}) {
		t.Errorf("the cache folder holds %v", names)
	}
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, CacheDir))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
