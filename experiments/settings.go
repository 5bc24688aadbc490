package experiments

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/runfolder"
)

// FromSettings builds a sweep's configuration from its settings as fp
// train's flags give them: stored holds every stored setting
// (runfolder.Settings) as its flag set it, its default when not given,
// except the list settings, whose comma-separated text lists holds by
// flag; isSet says which flags were given. A setting that applies to the
// sweep (Setting.Applies) is kept (as its zero where the zero stands for
// its default, Setting.StoreZero); one that does not apply takes the
// library's default unless given, and given, it is kept for Validate to
// refuse (or Resolved to drop, the adversarial ones). The lockstep mode is
// left to the sweep unless given.
func FromSettings(stored runfolder.Config, lists map[string]string, isSet func(flag string) bool) (Config, error) {
	cfg := DefaultConfig()
	d := cfg.Config
	cfg.Config = stored
	for _, s := range runfolder.Settings {
		if text, ok := lists[s.Flag]; ok {
			list, err := runfolder.ParseList(text)
			if err != nil {
				return cfg, fmt.Errorf("--%s %w", s.Flag, err)
			}
			*s.Field(&cfg.Config).(*[]string) = list
		}
	}
	for _, s := range runfolder.Settings {
		switch {
		case s.Applies(&cfg.Config):
			s.StoreZero(&cfg.Config)
		case !isSet(s.Flag):
			s.Copy(&cfg.Config, &d)
		}
	}
	if cfg.CSV != "" {
		if isSet("dataset") {
			return cfg, fmt.Errorf("give --dataset or --data, not both")
		}
		cfg.Dataset = ""
	}
	if cfg.Features != nil && cfg.Exclude != nil {
		return cfg, fmt.Errorf("give --features or --exclude, not both")
	}
	cfg.LockstepAuto = !isSet("lockstep")
	return cfg, nil
}

// Flag is the flag of fp train that sets the field: the setting's, else
// the key with dashes for underscores (workers, shard).
func (e *FieldError) Flag() string {
	if s, ok := runfolder.SettingByKey(e.Field); ok {
		return s.Flag
	}
	return strings.ReplaceAll(e.Field, "_", "-")
}

// AsFlagError rewrites an error holding a *FieldError to name the flag
// that sets the field, as fp train reports it; other errors pass unchanged.
func AsFlagError(err error) error {
	var fe *FieldError
	if !errors.As(err, &fe) {
		return err
	}
	return fmt.Errorf("--%s: %w", fe.Flag(), fe.Err)
}

// CodingLine says in one line what a CSV's 0/1 coding made of the file
// (the target value coded 1, and the sensitive value coded 1 or the
// groups); "" for a built-in dataset, whose coding is documented.
func (r *Runner) CodingLine() string {
	rc := r.Config()
	if rc.CSV == "" || rc.Coding == nil {
		return ""
	}
	if lv := r.Levels(); lv != nil {
		// More than two groups train as groups, not as the binary a.
		q := make([]string, len(lv))
		for i, l := range lv {
			q[i] = strconv.Quote(l)
		}
		return fmt.Sprintf("coding: y = 1 means %s = %q; %d groups of %s: %s",
			printable.String(rc.Coding.Target), rc.Coding.TargetPositive, len(lv), printable.String(rc.Coding.Sensitive), strings.Join(q, ", "))
	}
	return fmt.Sprintf("coding: y = 1 means %s = %q; a = 1 means %s = %q",
		printable.String(rc.Coding.Target), rc.Coding.TargetPositive, printable.String(rc.Coding.Sensitive), rc.Coding.SensitivePositive)
}
