// Package model describes the fully connected networks fp trains: their
// architecture ("LxH"), the flat parameter layout shared by every engine, the
// seeded initialisation, dropout masks, a plain numeric forward pass, and the
// file format a trained candidate is stored in (with the raw input schema and
// a card saying where it came from, so that it scores raw rows on its own).
//
// Both engines (the Gorgonia graph engine and the handwritten one) start from
// the same Params drawn here, so a seed means the same network whichever
// engine trains it.
package model
