package runfolder

import (
	"os"
	"path/filepath"
	"strings"
)

// CacheDir is the folder of a run folder that holds optional caches:
// results derived from the rest of the folder that are slow to compute
// (bootstrap intervals, say). Each cache file can be recomputed, so
// deleting the folder loses nothing but time, and a reader treats a file
// that is missing or that it cannot parse as absent.
const CacheDir = "cache"

// CachePath is where the cache file name is kept in run folder dir.
func CachePath(dir, name string) string {
	return filepath.Join(dir, CacheDir, name)
}

// ReadCache returns the content of run folder dir's cache file name; false
// when there is none (or name is not a plain file name).
func ReadCache(dir, name string) ([]byte, bool) {
	if !cacheName(name) {
		return nil, false
	}
	b, err := os.ReadFile(CachePath(dir, name))
	return b, err == nil
}

// WriteCache stores b as run folder dir's cache file name, whole or not at
// all: it writes a temporary file beside it and renames it over the old
// one, so readers and other writers see one complete content or the other
// and nobody waits on a lock. A cache is optional, so WriteCache never
// fails: where it cannot write (a read-only or shared copy of the folder,
// a full disk, a folder that does not exist) it leaves nothing behind and
// reports false. It does not sync the file: a cache cut short by a crash
// is one a reader cannot parse, and recomputes.
func WriteCache(dir, name string, b []byte) bool {
	if !cacheName(name) {
		return false
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return false // never create the run folder itself
	}
	cache := filepath.Join(dir, CacheDir)
	if err := os.Mkdir(cache, 0o755); err != nil && !os.IsExist(err) {
		return false
	}
	tmp, err := os.CreateTemp(cache, "."+name+".tmp*")
	if err != nil {
		return false
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		return false
	}
	// CreateTemp makes the file 0600; the folder is meant to be shared.
	if os.Chmod(tmp.Name(), 0o644) != nil {
		return false
	}
	return os.Rename(tmp.Name(), CachePath(dir, name)) == nil
}

// cacheName reports whether name is a plain file name, which cannot reach
// outside the cache folder.
func cacheName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`) && !strings.HasPrefix(name, ".")
}
