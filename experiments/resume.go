package experiments

import "github.com/fpareto/fp/runfolder"

// resuming is c as it runs into the folder out: the settings c leaves to
// the sweep (LockstepAuto, SelectFractionAuto) take the values stored in a
// folder that already holds a sweep, so that the same call resumes it
// whatever the defaults were when it was made (folders made before
// selection rows existed keep none). A setting given is kept: when it
// differs from the folder's, Claim refuses the folder. A new or unreadable
// folder changes nothing here.
func (c Config) resuming(out string) Config {
	old, err := runfolder.ReadConfig(out)
	if err != nil {
		return c
	}
	if c.LockstepAuto && !c.Lockstep {
		c.Lockstep, c.LockstepAuto = old.Lockstep, false
	}
	if c.SelectFraction == SelectFractionAuto {
		c.SelectFraction = old.SelectFraction
	}
	return c
}

// lockstepChosen settles LockstepAuto for a new folder: lockstep wherever
// the configuration allows it.
func (c Config) lockstepChosen() Config {
	if c.LockstepAuto && !c.Lockstep {
		c.Lockstep, c.LockstepAuto = c.LockstepPossible(), false
	}
	return c
}
