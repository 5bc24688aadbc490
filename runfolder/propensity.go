package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/propensity"
)

// PropensityFile is a split's stored propensity model.
type PropensityFile struct {
	T       float64     `json:"temperature"`
	Network *model.File `json:"network"`
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
	var f PropensityFile
	if err := json.Unmarshal(b, &f); err != nil || f.Network == nil {
		return nil, fmt.Errorf("%s: not a propensity model (delete it to refit)", path)
	}
	net, err := f.Network.Params()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pm := &propensity.Model{Net: net, T: f.T}
	if err := pm.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to refit)", path, err)
	}
	return pm, nil
}

// WritePropensity stores split m's propensity model.
func WritePropensity(dir string, m int, pm *propensity.Model) error {
	b, err := json.Marshal(PropensityFile{T: pm.T, Network: model.NewFile(pm.Net, nil, nil, nil)})
	if err != nil {
		return err
	}
	return writeAtomic(PropensityPath(dir, m), b)
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
