package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	scoring "github.com/fpareto/fp/predict"
	"github.com/fpareto/fp/propensity"
)

// PropensityFile is a split's stored propensity model: its network and
// calibration temperature. A file written by WritePropensity with an
// encoding also holds, in its network file, what turns a raw row into the
// model's input (the raw input schema, the encoded column names and the
// split's standardization, as the split's networks hold them), and the
// split and configuration digest it belongs to; an older file holds the
// bare network, and ReadPropensityFile takes the encoding from a network
// file of the same split.
//
// The propensity model of R ≥ 3 groups (propensity.Multinomial) is stored
// in the same file with Format PropensityFormatGroups, Levels naming the
// groups in code order, and a network of format propensity.SoftmaxFormat.
// A binary model's file has neither key, so its bytes are what they were.
type PropensityFile struct {
	Format  string      `json:"format,omitempty"`
	Levels  []string    `json:"levels,omitempty"`
	T       float64     `json:"temperature"`
	Split   *int        `json:"split,omitempty"`
	Config  string      `json:"config,omitempty"` // the run's configuration digest
	Network *model.File `json:"network"`

	// Borrowed reports that the encoding came from a network file, not
	// from the propensity file itself (ReadPropensityFile).
	Borrowed bool `json:"-"`
}

// PropensityFormatGroups is the Format of the propensity file of a model of
// R ≥ 3 groups; a binary model's file has none.
const PropensityFormatGroups = "fp-propensity-groups/1"

// PropensityEncoding is what WritePropensity stores so that the model can
// score raw rows: the raw input schema, the encoded column names, the
// split's standardization (the one the model was fitted on, which its
// networks share) and the digest of the run's configuration.
type PropensityEncoding struct {
	Schema   *datasets.Schema
	Features []string
	Std      *datasets.Standardizer
	Config   string
}

// PropensityPath is where split m's propensity model is stored.
func PropensityPath(dir string, m int) string {
	return filepath.Join(SplitDir(dir, m), "propensity.json")
}

// ReadPropensity reloads split m's stored propensity model; nil (and no
// error) when none is stored. A file that is not a valid model is an error
// saying that deleting it refits the model.
func ReadPropensity(dir string, m int) (*propensity.Model, error) {
	path := PropensityPath(dir, m)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	_, pm, err := parsePropensity(path, b)
	if err != nil {
		return nil, fmt.Errorf("%w (delete it to refit)", err)
	}
	return pm, nil
}

// parsePropensity decodes a binary propensity file and validates its model;
// the file of a model of R groups is refused, naming them.
func parsePropensity(path string, b []byte) (*PropensityFile, *propensity.Model, error) {
	f, err := decodePropensity(path, b)
	if err != nil {
		return nil, nil, err
	}
	if f.Format != "" {
		return nil, nil, fmt.Errorf("%s holds the propensity model of %d groups (%s), not of two", path, len(f.Levels), strings.Join(f.Levels, ", "))
	}
	net, err := f.Network.Params()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	pm := &propensity.Model{Net: net, T: f.T}
	if err := pm.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, pm, nil
}

// decodePropensity decodes a propensity file of either kind, checking its
// format key.
func decodePropensity(path string, b []byte) (*PropensityFile, error) {
	var f PropensityFile
	if err := json.Unmarshal(b, &f); err != nil || f.Network == nil {
		return nil, fmt.Errorf("%s: not a propensity model", path)
	}
	if f.Format != "" && f.Format != PropensityFormatGroups {
		return nil, fmt.Errorf("%s: propensity file format %q, want %q or none (two groups)", path, f.Format, PropensityFormatGroups)
	}
	return &f, nil
}

// parsePropensityGroups decodes the propensity file of a model of R ≥ 3
// groups and validates it: a binary model's file is refused.
func parsePropensityGroups(path string, b []byte) (*PropensityFile, *propensity.Multinomial, error) {
	f, err := decodePropensity(path, b)
	if err != nil {
		return nil, nil, err
	}
	if f.Format == "" {
		return nil, nil, fmt.Errorf("%s holds the propensity model of two groups, not of several", path)
	}
	net, err := propensity.SoftmaxNetFromFile(f.Network)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	pm := &propensity.Multinomial{Net: net, T: f.T}
	if err := pm.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkLevels(f.Levels, net.Out()); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkSchema(f.Network); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, pm, nil
}

// checkSchema checks the raw input schema of a softmax network's file, as
// model.File.Params does for a plain network's.
func checkSchema(f *model.File) error {
	s := f.Schema
	if s == nil {
		return nil
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if got := s.Features(); !slices.Equal(got, f.Features) {
		return fmt.Errorf("the schema encodes %d features, which are not the %d the network lists", len(got), len(f.Features))
	}
	return nil
}

// checkLevels checks that levels names each of groups groups once.
func checkLevels(levels []string, groups int) error {
	if len(levels) != groups {
		return fmt.Errorf("%d group levels for a model of %d groups", len(levels), groups)
	}
	seen := map[string]bool{}
	for _, l := range levels {
		if l == "" || seen[l] {
			return fmt.Errorf("group levels %q: want %d distinct, non-empty names", levels, groups)
		}
		seen[l] = true
	}
	return nil
}

// ReadPropensityGroups reloads split m's stored propensity model of R ≥ 3
// groups and the groups' levels in code order; nil (and no error) when none
// is stored. A file that is not a valid model of several groups is an error
// saying that deleting it refits the model.
func ReadPropensityGroups(dir string, m int) (*propensity.Multinomial, []string, error) {
	path := PropensityPath(dir, m)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	f, pm, err := parsePropensityGroups(path, b)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (delete it to refit)", err)
	}
	return pm, f.Levels, nil
}

// WritePropensityGroups stores split m's propensity model of R ≥ 3 groups,
// whose levels name the groups in code order, with enc (nil for a bare
// model) as WritePropensity does.
func WritePropensityGroups(dir string, m int, pm *propensity.Multinomial, levels []string, enc *PropensityEncoding) error {
	if err := pm.Validate(); err != nil {
		return fmt.Errorf("propensity model of split %d: %w", m, err)
	}
	if err := checkLevels(levels, pm.Groups()); err != nil {
		return fmt.Errorf("propensity model of split %d: %w", m, err)
	}
	pf := PropensityFile{Format: PropensityFormatGroups, Levels: levels, T: pm.T, Network: pm.File(nil, nil, nil)}
	if err := pf.setEncoding(m, pm.Net.Dim, enc); err != nil {
		return err
	}
	b, err := json.Marshal(pf)
	if err != nil {
		return err
	}
	return writeAtomic(PropensityPath(dir, m), b)
}

// setEncoding stores enc (nothing when nil) in pf, the file of split m's
// model of dim inputs.
func (pf *PropensityFile) setEncoding(m, dim int, enc *PropensityEncoding) error {
	if enc == nil {
		return nil
	}
	if enc.Std == nil || len(enc.Std.Mean) != dim || len(enc.Features) != dim {
		return fmt.Errorf("propensity model of split %d: the encoding does not have its %d inputs", m, dim)
	}
	pf.Split, pf.Config = &m, enc.Config
	pf.Network.Features, pf.Network.Mean, pf.Network.SD = enc.Features, enc.Std.Mean, enc.Std.SD
	pf.Network.Schema = enc.Schema
	return nil
}

// Groups returns the model of R ≥ 3 groups the file holds, validated; a
// binary model's file is refused.
func (pf *PropensityFile) Groups() (*propensity.Multinomial, error) {
	if pf.Format != PropensityFormatGroups {
		return nil, errors.New("the propensity model is of two groups, not of several")
	}
	net, err := propensity.SoftmaxNetFromFile(pf.Network)
	if err != nil {
		return nil, err
	}
	pm := &propensity.Multinomial{Net: net, T: pf.T}
	if err := pm.Validate(); err != nil {
		return nil, err
	}
	return pm, checkLevels(pf.Levels, net.Out())
}

// PredictGroups returns the calibrated propensities of n rows x of the
// file's model of R ≥ 3 groups: x is row-major n×dim, encoded as the
// network's Features list but not standardized (as model.File.Predict takes
// it); the result is row-major n×R, in the order of Levels, the values a
// file of scored rows writes as the columns propensity.ColumnName(level).
func (pf *PropensityFile) PredictGroups(x []float64, n int) ([]float64, error) {
	pm, err := pf.Groups()
	if err != nil {
		return nil, err
	}
	dim := pm.Net.Dim
	if n < 0 || len(x) != n*dim {
		return nil, fmt.Errorf("propensity: got %d values for %d rows of %d inputs", len(x), n, dim)
	}
	z := slices.Clone(x)
	if mean, sd := pf.Network.Mean, pf.Network.SD; mean != nil {
		for i := range z {
			// As model.File.Logits: an input of sd 0 was constant on the
			// training split and is 0 after standardization.
			if j := i % dim; sd[j] == 0 {
				z[i] = 0
			} else {
				z[i] = (z[i] - mean[j]) / sd[j]
			}
		}
	}
	return pm.Predict(z, n), nil
}

// WritePropensity stores split m's propensity model, with enc (nil for a
// bare model) so that the file scores raw rows on its own.
func WritePropensity(dir string, m int, pm *propensity.Model, enc *PropensityEncoding) error {
	pf := PropensityFile{T: pm.T, Network: model.NewFile(pm.Net, nil, nil, nil)}
	if err := pf.setEncoding(m, pm.Net.Dim, enc); err != nil {
		return err
	}
	b, err := json.Marshal(pf)
	if err != nil {
		return err
	}
	return writeAtomic(PropensityPath(dir, m), b)
}

// NetworkPropensityPath is the propensity model of the split of the
// network file at path, found from the run folder it lies in:
// RUN/networks/split-NNN/NAME.json, and a split's one λ-conditioned network
// RUN/networks/split-NNN-NAME.json, have RUN/splits/split-NNN/propensity.json.
func NetworkPropensityPath(path string) (string, error) {
	dir := filepath.Dir(path)
	split, ok := strings.CutPrefix(filepath.Base(dir), "split-")
	networks := filepath.Dir(dir)
	if base := filepath.Base(path); filepath.Base(dir) == "networks" && strings.HasPrefix(base, "split-") {
		// A file directly in networks/: the split is the digits after "split-".
		split, _, ok = strings.Cut(strings.TrimPrefix(base, "split-"), "-")
		networks = dir
	}
	m, err := strconv.Atoi(split)
	if !ok || err != nil || m < 0 || filepath.Base(networks) != "networks" {
		return "", fmt.Errorf("%s is not in a run folder's networks/split-NNN folder, so its split's propensity model cannot be found: name the file with --propensity-file", path)
	}
	return PropensityPath(filepath.Dir(networks), m), nil
}

// ReadPropensityFile reads the propensity file at path, of a binary model
// or of one of R ≥ 3 groups (PropensityFile.Groups, PredictGroups), to
// score raw rows next to net, a network file of the same split. A file that carries its
// encoding is used as it is; an older one takes net's schema, column names
// and standardization (a split's networks and its propensity model are
// fitted on the same standardization of the split's training rows), and
// Borrowed is set. A file of another split or configuration than net's
// card names is refused: its ê would not be those the records used.
func ReadPropensityFile(path string, net *model.File) (*PropensityFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("propensity model: %w", err)
	}
	pf, err := decodePropensity(path, b)
	if err != nil {
		return nil, err
	}
	var dim int
	if pf.Format == "" {
		_, pm, err := parsePropensity(path, b)
		if err != nil {
			return nil, err
		}
		dim = pm.Net.Dim
	} else {
		_, pm, err := parsePropensityGroups(path, b)
		if err != nil {
			return nil, err
		}
		dim = pm.Net.Dim
	}
	if c := net.Card; c != nil {
		if pf.Split != nil && *pf.Split != c.Split {
			return nil, fmt.Errorf("%s is the propensity model of split %d, the network is of split %d", path, *pf.Split, c.Split)
		}
		if pf.Config != "" && c.Config != "" && pf.Config != c.Config {
			return nil, fmt.Errorf("%s is the propensity model of another run (configuration %s, the network's is %s)", path, pf.Config, c.Config)
		}
	}
	if pf.Network.Schema == nil {
		if net.Schema == nil || net.Mean == nil {
			return nil, fmt.Errorf("%s holds no raw input schema and the network file has none to lend it", path)
		}
		if net.Dim != dim {
			return nil, fmt.Errorf("%s takes %d inputs, the network %d: it is not the propensity model of the network's split", path, dim, net.Dim)
		}
		pf.Network.Features, pf.Network.Mean, pf.Network.SD, pf.Network.Schema = net.Features, net.Mean, net.SD, net.Schema
		pf.Borrowed = true
	}
	if pf.Format == "" {
		_, err = pf.Network.Params()
	} else {
		err = checkSchema(pf.Network)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pf, nil
}

// PropensityTemperature reads only the calibration temperature of split
// m's stored propensity model, as a report of a folder written before the
// overlap summaries were stored shows it; false when there is none.
func PropensityTemperature(dir string, m int) (float64, bool) {
	b, err := os.ReadFile(PropensityPath(dir, m))
	if err != nil {
		return 0, false
	}
	var f struct {
		T *float64 `json:"temperature"`
	}
	if json.Unmarshal(b, &f) != nil || f.T == nil {
		return 0, false
	}
	return *f.T, true
}

// PropensityFor reads the propensity model fp predict scores rows with
// beside the network net read from modelPath: the file at path, or, where
// path is "", the one of the network's split in its run folder. note is
// "" or a line to show the user: the file holds no raw input schema, and
// its rows are read as the network's.
func PropensityFor(path, modelPath string, net *model.File) (p *scoring.Propensity, note string, err error) {
	if path == "" {
		if path, err = NetworkPropensityPath(modelPath); err != nil {
			return nil, "", fmt.Errorf("--with-propensity: %w", err)
		}
	}
	pf, err := ReadPropensityFile(path, net)
	if err != nil {
		return nil, "", err
	}
	if pf.Borrowed {
		note = path + " holds no raw input schema (written by an older fp): its rows are encoded and standardized as the network's, which share its split's standardization"
	}
	if pf.Format == PropensityFormatGroups {
		// One column per group, as fp audit --group reads them.
		if _, err := pf.Groups(); err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		return &scoring.Propensity{File: pf.Network, T: pf.T, Levels: pf.Levels, Groups: pf.PredictGroups}, note, nil
	}
	return &scoring.Propensity{File: pf.Network, T: pf.T}, note, nil
}
