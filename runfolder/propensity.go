package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
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
type PropensityFile struct {
	T       float64     `json:"temperature"`
	Split   *int        `json:"split,omitempty"`
	Config  string      `json:"config,omitempty"` // the run's configuration digest
	Network *model.File `json:"network"`

	// Borrowed reports that the encoding came from a network file, not
	// from the propensity file itself (ReadPropensityFile).
	Borrowed bool `json:"-"`
}

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

// parsePropensity decodes a propensity file and validates its model.
func parsePropensity(path string, b []byte) (*PropensityFile, *propensity.Model, error) {
	var f PropensityFile
	if err := json.Unmarshal(b, &f); err != nil || f.Network == nil {
		return nil, nil, fmt.Errorf("%s: not a propensity model", path)
	}
	net, err := f.Network.Params()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	pm := &propensity.Model{Net: net, T: f.T}
	if err := pm.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, pm, nil
}

// WritePropensity stores split m's propensity model, with enc (nil for a
// bare model) so that the file scores raw rows on its own.
func WritePropensity(dir string, m int, pm *propensity.Model, enc *PropensityEncoding) error {
	pf := PropensityFile{T: pm.T, Network: model.NewFile(pm.Net, nil, nil, nil)}
	if enc != nil {
		if enc.Std == nil || len(enc.Std.Mean) != pm.Net.Dim || len(enc.Features) != pm.Net.Dim {
			return fmt.Errorf("propensity model of split %d: the encoding does not have its %d inputs", m, pm.Net.Dim)
		}
		pf.Split, pf.Config = &m, enc.Config
		pf.Network.Features, pf.Network.Mean, pf.Network.SD = enc.Features, enc.Std.Mean, enc.Std.SD
		pf.Network.Schema = enc.Schema
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

// ReadPropensityFile reads the propensity file at path to score raw rows
// next to net, a network file of the same split. A file that carries its
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
	pf, pm, err := parsePropensity(path, b)
	if err != nil {
		return nil, err
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
		if net.Dim != pm.Net.Dim {
			return nil, fmt.Errorf("%s takes %d inputs, the network %d: it is not the propensity model of the network's split", path, pm.Net.Dim, net.Dim)
		}
		pf.Network.Features, pf.Network.Mean, pf.Network.SD, pf.Network.Schema = net.Features, net.Mean, net.SD, net.Schema
		pf.Borrowed = true
	}
	if _, err := pf.Network.Params(); err != nil {
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
