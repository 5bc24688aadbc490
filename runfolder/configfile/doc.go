// Package configfile reads the --config file of fp train: YAML (.yaml,
// .yml), TOML (.toml) or JSON (.json, such as a run's config.json), one
// setting per key.
//
// A key is a flag's name without the dashes (epochs, propensity-epochs) or
// a key of the config.json a run writes (propensity_epochs; csv is --data,
// adv_epochs --adv-rounds, adv_beta_scale --beta-scale); both come from
// runfolder.Settings, so that a new setting needs no edit here. A key given
// twice, under one spelling or both, is refused.
//
// Keys config.json writes that are not settings (coding, data_id, the
// versions of custom terms) are checked rather than set: coding must be
// what the data codes, data_id the identity of its rows, and a custom
// term's name or version (library use only) must be empty.
//
// A file that holds every key config.json always writes (method, splits,
// seed, …) is read as a run's config.json: a key it leaves out has the value
// its absence means there (lockstep false, val_fraction 0, …), not the
// flag's default, so that `fp train --config RUN/config.json` repeats RUN's
// configuration.
//
// The reader is bounded whatever the file holds: at most MaxBytes are
// read, a YAML file's aliases are counted and their expansion walked within
// a budget of nodes (a self-referring or exponentially aliased file is
// refused, not expanded), JSON and TOML are read by their own decoders with
// every key checked, and a second YAML document is refused rather than
// ignored. Every refusal is one line naming the file, the line where the
// format gives one, and the key.
package configfile
