package datasets

// Summary describes a built-in dataset with one of its presets.
type Summary struct {
	Name   string `json:"name"`
	Preset string `json:"preset"`
	Stats
	A1 string `json:"a1"` // what a = 1 means, e.g. "race=African-American"
	Y1 string `json:"y1"` // what y = 1 means, e.g. "income=>50K"
	// Groups are the rows and P(y=1) of each group of a dataset whose
	// sensitive attribute is in groups (Variants).
	Groups []GroupCount `json:"groups,omitempty"`
}

// Summaries loads every built-in dataset with each of its presets, then
// every variant (Variants), from dataDir when it is set (see
// Options.DataDir), and describes each.
func Summaries(dataDir string) ([]Summary, error) {
	var out []Summary
	for _, name := range append(Names(), Variants()...) {
		for _, preset := range Presets(name) {
			d, err := Load(name, Options{Preset: preset, DataDir: dataDir})
			if err != nil {
				return nil, err
			}
			out = append(out, Summary{Name: name, Preset: preset, Stats: d.Stats(),
				A1: d.Sensitive + "=" + d.GroupPositive, Y1: d.Target + "=" + d.LabelPositive, Groups: d.GroupCounts()})
		}
	}
	return out, nil
}
