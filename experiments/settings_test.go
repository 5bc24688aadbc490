package experiments

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/runfolder"
)

// FromSettings keeps what was given, fills the defaults of what was not,
// splits list settings and refuses settings that exclude each other.
func TestFromSettings(t *testing.T) {
	given := map[string]bool{"epochs": true, "data": true, "exclude": true}
	stored := DefaultConfig().Config
	stored.Epochs, stored.CSV, stored.AdvEpochs = 7, "x.csv", 3
	cfg, err := FromSettings(stored, map[string]string{"exclude": " a, b ", "features": ""}, func(f string) bool { return given[f] })
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultConfig()
	if cfg.Epochs != 7 || cfg.CSV != "x.csv" || cfg.Dataset != "" || !reflect.DeepEqual(cfg.Exclude, []string{"a", "b"}) ||
		cfg.Features != nil || cfg.Splits != d.Splits || cfg.AdvEpochs != d.AdvEpochs || !cfg.LockstepAuto {
		t.Errorf("got %+v", cfg.Config)
	}
	for _, tc := range []struct {
		given map[string]bool
		lists map[string]string
		want  string
	}{
		{map[string]bool{"data": true, "dataset": true}, nil, "give --dataset or --data, not both"},
		{map[string]bool{"features": true, "exclude": true}, map[string]string{"features": "a", "exclude": "b"}, "give --features or --exclude"},
	} {
		_, err := FromSettings(runfolder.Config{CSV: "x.csv"}, tc.lists, func(f string) bool { return tc.given[f] })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.given, err, tc.want)
		}
	}
}

// A field error names the flag that sets the field.
func TestFieldErrorFlag(t *testing.T) {
	for key, flag := range map[string]string{"propensity_epochs": "propensity-epochs", "csv": "data", "adv_epochs": "adv-rounds", "max_rows": "max-rows"} {
		if got := (&FieldError{Field: key}).Flag(); got != flag {
			t.Errorf("%s: --%s, want --%s", key, got, flag)
		}
	}
}
