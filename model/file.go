package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fpareto/fp/datasets"
)

// FileFormat names the network file format written by Save. Load also
// reads FileFormatV1, the format before the raw schema and the card.
const (
	FileFormat   = "fp-network/2"
	FileFormatV1 = "fp-network/1"
	// FileFormatConditioned is a λ-conditioned network (docs/method.md
	// §12): a fp-network/2 document with a "film" member. It scores rows
	// only at a given λ: File.At folds it into a plain fp-network/2 file.
	FileFormatConditioned = "fp-network/3"
)

// File is a stored network: the JSON document Save writes and Load reads.
//
//	{
//	  "format":   "fp-network/1",
//	  "arch":     "4x4",            // L linear layers × H hidden units
//	  "dim":      12,               // inputs after encoding
//	  "features": ["sex=Male", …],  // encoded column names, in input order
//	  "mean": [...], "sd": [...],   // the training split's standardization of each input
//	  "weights":  [[...], ...],     // per layer, row-major In×Out
//	  "biases":   [[...], ...],     // per layer, Out entries
//	  "schema":   {...},            // the raw source columns, their encoding and the 0/1 coding of y and a
//	  "card":     {...}             // where the network came from and its test metrics
//	}
//
// Schema and Card are absent from fp-network/1 files and from networks
// that are not trained on a dataset (a propensity model).
//
// To predict: z = Forward((x − mean)/sd) with sd = 0 meaning the input is 0,
// then p = sigmoid(z). Predict does exactly that.
type File struct {
	Format   string      `json:"format"`
	Arch     string      `json:"arch"`
	Dim      int         `json:"dim"`
	Features []string    `json:"features,omitempty"`
	Mean     []float64   `json:"mean,omitempty"`
	SD       []float64   `json:"sd,omitempty"`
	Weights  [][]float64 `json:"weights"`
	Biases   [][]float64 `json:"biases"`

	Schema *datasets.Schema `json:"schema,omitempty"`
	Card   *Card            `json:"card,omitempty"`

	// FiLM is the conditioning network of a fp-network/3 file; absent
	// otherwise.
	FiLM *FiLM `json:"film,omitempty"`
	// GroupThresholds are the decision rules of a fp-network/4 file;
	// absent otherwise.
	GroupThresholds *GroupThresholds `json:"group_thresholds,omitempty"`
}

// NewConditionedFile wraps c (not copied) like NewFile, as a fp-network/3 file.
func NewConditionedFile(c *Conditioned, features []string, mean, sd []float64) *File {
	f := NewFile(c.Net, features, mean, sd)
	f.Format = FileFormatConditioned
	f.FiLM = c.FiLM
	return f
}

// IsConditioned reports whether f holds a λ-conditioned network.
func (f *File) IsConditioned() bool { return f.Format == FileFormatConditioned }

// Conditioned returns the λ-conditioned network f holds, validated.
func (f *File) Conditioned() (*Conditioned, error) {
	if !f.IsConditioned() {
		return nil, fmt.Errorf("network file format %q is a plain network, not a λ-conditioned one (%q)", f.Format, FileFormatConditioned)
	}
	p, err := f.mlp()
	if err != nil {
		return nil, err
	}
	if f.FiLM == nil {
		return nil, fieldErr("film", "missing: a %s file holds its conditioning network there", FileFormatConditioned)
	}
	c := &Conditioned{Net: p, FiLM: f.FiLM}
	if err := c.Validate(); err != nil {
		return nil, fieldErr("film", "%v", err)
	}
	return c, nil
}

// At returns the plain fp-network/2 file of the network f holds at λ
// (Conditioned.At), with the same features, standardization, schema and a
// copy of the card whose Lambda is λ and Conditioned true, so that the
// folded file still says where it came from. λ must lie in [0, 1].
func (f *File) At(lambda float64) (*File, error) {
	c, err := f.Conditioned()
	if err != nil {
		return nil, err
	}
	if !(lambda >= 0 && lambda <= 1) {
		return nil, fmt.Errorf("λ = %g is outside [0, 1]", lambda)
	}
	p := c.At(lambda)
	g := *f
	g.Format = FileFormat
	g.FiLM = nil
	g.Weights, g.Biases = p.W, p.B
	if f.Card != nil {
		card := *f.Card
		card.Lambda = lambda
		card.Conditioned = true
		g.Card = &card
	}
	return &g, nil
}

// NewFile wraps p (not copied) with the encoder's column names and statistics.
func NewFile(p *Params, features []string, mean, sd []float64) *File {
	return &File{Format: FileFormat, Arch: p.Arch.String(), Dim: p.Dim,
		Features: features, Mean: mean, SD: sd, Weights: p.W, Biases: p.B}
}

// Params returns the network held by the file, validated. A λ-conditioned
// file has no single network: it is refused, naming At.
func (f *File) Params() (*Params, error) {
	if f.IsConditioned() {
		return nil, fmt.Errorf("network file: a λ-conditioned network (%q) scores rows only at a given λ: choose one (--lambda)", f.Format)
	}
	if f.Format == FileFormatThresholds {
		if f.GroupThresholds == nil {
			return nil, fmt.Errorf("network file %q: no group thresholds (\"group_thresholds\")", f.Format)
		}
		if err := f.GroupThresholds.Validate(); err != nil {
			return nil, err
		}
		return f.mlp()
	}
	if f.Format != FileFormat && f.Format != FileFormatV1 {
		return nil, fmt.Errorf("network file format %q: want %q, %q, %q or %q", f.Format, FileFormat, FileFormatV1, FileFormatConditioned, FileFormatThresholds)
	}
	return f.mlp()
}

// mlp is the file's MLP, validated, whatever its format (validate).
func (f *File) mlp() (*Params, error) {
	return f.validate()
}

// Predict returns the predicted probabilities of n unstandardized rows x
// (row-major n×Dim, already one-hot encoded as Features lists).
func (f *File) Predict(x []float64, n int) ([]float64, error) {
	out, err := f.Logits(x, n)
	if err != nil {
		return nil, err
	}
	for i, v := range out {
		out[i] = Sigmoid(v)
	}
	return out, nil
}

// Logits is Predict before the sigmoid: the logits of n unstandardized rows
// x, from which the risk is computed exactly (see Softplus).
func (f *File) Logits(x []float64, n int) ([]float64, error) {
	p, err := f.Params()
	if err != nil {
		return nil, err
	}
	if len(x) != n*f.Dim {
		return nil, fmt.Errorf("predict: got %d values for %d rows of %d inputs", len(x), n, f.Dim)
	}
	z := make([]float64, n*f.Dim)
	for i := 0; i < n; i++ {
		for j := 0; j < f.Dim; j++ {
			v := x[i*f.Dim+j]
			if f.Mean != nil {
				if f.SD[j] == 0 {
					v = 0
				} else {
					v = (v - f.Mean[j]) / f.SD[j]
				}
			}
			z[i*f.Dim+j] = v
		}
	}
	out := make([]float64, n)
	p.Forward(z, n, out)
	return out, nil
}

// Save writes f to path atomically (a temporary file renamed into place).
func Save(path string, f *File) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("save network %s: %w", path, err)
	}
	return WriteFileAtomic(path, b)
}

// Load reads a network file written by Save.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load network: %w", err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("load network %s: %w", path, err)
	}
	if f.IsConditioned() {
		_, err = f.Conditioned()
	} else {
		_, err = f.Params()
	}
	if fe := (*FieldError)(nil); errors.As(err, &fe) {
		return nil, fmt.Errorf("network file %s: %w: %w", path, err, ErrDamaged)
	}
	if err != nil {
		return nil, fmt.Errorf("load network %s: %w", path, err)
	}
	return &f, nil
}

// WriteFileAtomic writes data to a temporary file beside path, syncs it and
// renames it over path, so readers see the old file or the new one, never a part.
// The temporary file's name is "." + path's base + ".tmp" + digits
// (IsTempName); a process killed while writing leaves it behind.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; results are meant to be shared.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// IsTempName reports whether a file name is one WriteFileAtomic gives its
// temporary files: "." + a name + ".tmp" + one or more digits.
func IsTempName(name string) bool {
	i := strings.LastIndex(name, ".tmp")
	if len(name) < 2 || name[0] != '.' || i < 2 || i+4 == len(name) {
		return false
	}
	for _, c := range name[i+4:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
