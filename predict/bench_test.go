package predict

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// compasRowsCSV returns the header and the raw rows of the embedded COMPAS
// data with just the 8 columns its network reads.
func compasRowsCSV(b *testing.B) (*model.File, string, []string) {
	d, err := datasets.Load("compas", datasets.Options{})
	if err != nil {
		b.Fatal(err)
	}
	f := network(b, d, "4x4")
	var names []string
	for _, c := range d.Schema.Columns {
		names = append(names, c.Name)
	}
	lines := make([]string, d.N)
	for i := range d.N {
		raw, err := d.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			b.Fatal(err)
		}
		lines[i] = strings.Join(raw, ",") + "\n"
	}
	return f, strings.Join(names, ",") + "\n", lines
}

// BenchmarkPredictCOMPAS scores a CSV of the 8 COMPAS columns; rows/s is
// the figure to compare (run with -cpu 1 for one core). The quoted variant
// quotes the header, so that every row goes through encoding/csv: the cost
// of the fallback.
func BenchmarkPredictCOMPAS(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchmarkPredict(b, false) })
	b.Run("quoted", func(b *testing.B) { benchmarkPredict(b, true) })
	b.Run("parquet", benchmarkPredictParquet)
}

// benchmarkPredictParquet scores the same rows from a Parquet file in
// memory, in row groups of datasets.ParquetRowGroupRows rows.
func benchmarkPredictParquet(b *testing.B) {
	f, header, lines := compasRowsCSV(b)
	names := strings.Split(strings.TrimSpace(header), ",")
	cols := make([]datasets.ParquetColumn, len(names))
	for j, c := range f.Schema.Columns {
		cols[j] = datasets.ParquetColumn{Name: c.Name, Type: datasets.ParquetDouble}
		if c.Kind == datasets.KindCategorical {
			cols[j].Type = datasets.ParquetString
		}
	}
	var buf bytes.Buffer
	w, err := datasets.NewParquetWriter(&buf, cols)
	if err != nil {
		b.Fatal(err)
	}
	const rows = 200_000
	cells := make([][]byte, len(cols))
	for i := range rows {
		for j, c := range strings.Split(strings.TrimSpace(lines[i%len(lines)]), ",") {
			cells[j] = []byte(c)
		}
		if err := w.Write(cells); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		src, err := datasets.NewParquetReader(bytes.NewReader(data), int64(len(data)), "bench.parquet")
		if err != nil {
			b.Fatal(err)
		}
		n, err := Score(f, src, io.Discard, Options{Threshold: 0.5})
		if err != nil || n != rows {
			b.Fatal(n, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func benchmarkPredict(b *testing.B, quoted bool) {
	f, header, lines := compasRowsCSV(b)
	var buf bytes.Buffer
	if quoted {
		header = `"` + strings.ReplaceAll(strings.TrimSpace(header), ",", `","`) + "\"\n"
	}
	buf.WriteString(header)
	const rows = 200_000
	for i := range rows {
		buf.WriteString(lines[i%len(lines)])
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for range b.N {
		n, err := Run(f, bytes.NewReader(data), "bench.csv", io.Discard, Options{Threshold: 0.5})
		if err != nil || n != rows {
			b.Fatal(n, err)
		}
	}
	b.StopTimer()
	total := float64(rows) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "rows/s")
	// Per second of CPU used by the process: with GOMAXPROCS=1 the speed
	// of one core, whatever else shares the machine.
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(total/cpu, "rows/cpu-s")
	}
}

// cpuSeconds is the user and system CPU time the process has used.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// rowStream generates the header and n−1 CSV rows on the fly, so that the file's size does
// not enter the process's memory.
type rowStream struct {
	header string
	lines  []string
	n, i   int
	rest   []byte
}

func (s *rowStream) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) {
		if len(s.rest) == 0 {
			if s.i == s.n {
				if w == 0 {
					return 0, io.EOF
				}
				break
			}
			if s.i == 0 {
				s.rest = []byte(s.header)
			} else {
				s.rest = []byte(s.lines[(s.i-1)%len(s.lines)])
			}
			s.i++
		}
		k := copy(p[w:], s.rest)
		s.rest = s.rest[k:]
		w += k
	}
	return w, nil
}

// BenchmarkPredictMemory reports the peak heap in use while scoring 5,000
// and 5,000,000 rows: streaming keeps the two alike.
func BenchmarkPredictMemory(b *testing.B) {
	f, header, lines := compasRowsCSV(b)
	for _, n := range []int{5_000, 5_000_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			var peak uint64
			for range b.N {
				runtime.GC()
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					var ms runtime.MemStats
					t := time.NewTicker(2 * time.Millisecond)
					defer t.Stop()
					for {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse+ms.StackInuse)
						select {
						case <-stop:
							return
						case <-t.C:
						}
					}
				}()
				in := &rowStream{header: header, lines: lines, n: n + 1}
				if _, err := Run(f, in, "stream.csv", io.Discard, Options{Threshold: 0.5}); err != nil {
					b.Fatal(err)
				}
				close(stop)
				wg.Wait()
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
}
