package records

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Writer appends records to a JSON Lines file. Each record is written with a
// single write(2) of one complete line to a file opened with O_APPEND and
// then synced, so a crash leaves either the whole line or a torn tail
// without its newline; Open cuts such a tail off before appending.
//
// One process at a time writes a records file: Open takes an exclusive
// lock on it (flock), held until Close or the process's exit, and writes
// the process ID beside it (PATH.lock) so that a second writer is told
// which process holds it. A Writer is safe for concurrent use by the
// goroutines of its process.
type Writer struct {
	mu   sync.Mutex
	lock *os.File // holds the flock
	f    *os.File // O_APPEND
	path string
}

// LockedError reports a records file that another process is writing.
type LockedError struct {
	Path string
	PID  int // the holder's process ID; 0 if it could not be read
}

func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("records file %s is being written by %s: wait for it to finish, or write to another folder", e.Path, holder)
}

// Open opens path for appending, creating it if needed, and locks it
// against other processes: if another process holds it, Open fails at once
// with a *LockedError. A torn last line (no trailing newline, left by a
// crash) is removed first.
func Open(path string) (*Writer, error) {
	lf, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open records: %w", err)
	}
	if err := unix.Flock(int(lf.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		lf.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &LockedError{Path: path, PID: holderPID(path)}
		}
		return nil, fmt.Errorf("lock records %s: %w", path, err)
	}
	// Only the lock holder writes the PID file, so it is never torn.
	_ = os.WriteFile(path+lockSuffix, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	fail := func(err error) (*Writer, error) {
		os.Remove(path + lockSuffix)
		lf.Close()
		return nil, fmt.Errorf("open records %s: %w", path, err)
	}
	if err := cutTornTail(lf); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fail(err)
	}
	return &Writer{lock: lf, f: f, path: path}, nil
}

// lockSuffix names the file beside a records file that holds its writer's
// process ID.
const lockSuffix = ".lock"

// holderPID reads the process ID of the writer of path, waiting briefly
// for a writer that has just taken the lock to write it.
func holderPID(path string) int {
	for range 20 {
		b, err := os.ReadFile(path + lockSuffix)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}

// cutTornTail removes whatever follows the last newline of f. A tail that is
// a complete record (only its newline was lost) is kept and its newline
// added instead: Read accepts such a line, so a resumed sweep counts that
// candidate as done and must not lose its record.
func cutTornTail(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	if size == 0 {
		return nil
	}
	const chunk = 4096
	buf := make([]byte, chunk)
	end := size
	cut := int64(0)
	for end > 0 {
		start := max(0, end-chunk)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			cut = start + int64(i) + 1
			break
		}
		end = start
	}
	if cut == size {
		return nil
	}
	tail := make([]byte, size-cut)
	if _, err := f.ReadAt(tail, cut); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if isRecord(bytes.TrimSpace(tail)) {
		_, err := f.WriteAt([]byte{'\n'}, size)
		return err
	}
	return f.Truncate(cut)
}

// isRecord reports whether b is one complete record as Decode accepts it.
func isRecord(b []byte) bool {
	_, err := decodeLine(b)
	return err == nil
}

// decodeLine decodes one line, which must be a JSON object (json.Unmarshal
// alone would accept "null" as an empty record).
func decodeLine(b []byte) (Record, error) {
	var rec Record
	if len(b) == 0 || b[0] != '{' {
		return rec, errors.New("want a JSON object")
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, err
	}
	if rec.Status == "" {
		rec.Status = StatusOK
	}
	return rec, nil
}

// Append writes r as one line and syncs the file.
func (w *Writer) Append(r *Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("append record to %s: %w", w.path, err)
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(b); err != nil {
		return fmt.Errorf("append record to %s: %w", w.path, err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("append record to %s: %w", w.path, err)
	}
	return nil
}

// Close closes the file and releases the lock.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.f.Close()
	os.Remove(w.path + lockSuffix)
	if lerr := w.lock.Close(); err == nil {
		err = lerr
	}
	return err
}

// TornLineError reports a last line that is not a complete record: the trace
// of a crash during an append. Read skips that line and returns the records
// before it together with this error (check with errors.As).
type TornLineError struct {
	Path string
	Line int
}

func (e *TornLineError) Error() string {
	return fmt.Sprintf("%s:%d: torn last line (an interrupted write) skipped", e.Path, e.Line)
}

// Read reads every record of a JSON Lines file. A bad line in the middle is an
// error naming the file and line. A torn last line is skipped: the records
// are returned with a *TornLineError.
func Read(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}

// Decode reads records from r; name is used in errors.
func Decode(r io.Reader, name string) ([]Record, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var out []Record
	line := 0
	for {
		b, err := br.ReadBytes('\n')
		if len(b) == 0 && errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return out, fmt.Errorf("%s: %w", name, err)
		}
		line++
		last := errors.Is(err, io.EOF) // no trailing newline: the line may be torn
		trimmed := bytes.TrimSpace(b)
		if len(trimmed) == 0 {
			if last {
				return out, nil
			}
			continue
		}
		rec, jerr := decodeLine(trimmed)
		if jerr != nil {
			if last {
				return out, &TornLineError{Path: name, Line: line}
			}
			return out, fmt.Errorf("%s:%d: not a record: %w", name, line, jerr)
		}
		if err := checkWeights(rec.Weights); err != nil {
			return out, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, rec)
		if last {
			return out, nil
		}
	}
}
