// Package datasets loads the data fp learns from: the UCI Adult census data
// (adult-sex, adult-race), the ProPublica COMPAS data (compas) and any CSV
// or Parquet file. It validates the files, one-hot encodes categorical columns, draws
// train/test splits stratified by the label and standardizes features with
// statistics of the training rows only.
//
// Every example is (x, a, y): features x, a binary sensitive attribute a and a
// binary label y (and, when asked for, the sensitive attribute's group). The sensitive attribute is never a column of x.
//
// # Where the data comes from
//
// Adult is the Census Income data of Becker and Kohavi (1996) from the UCI
// Machine Learning Repository (files adult.data and adult.test). COMPAS is the
// file compas-scores-two-years.csv that ProPublica published with its 2016
// analysis "Machine Bias" (github.com/propublica/compas-analysis). The binary
// embeds compact copies of both, reduced to the columns fp uses (no names,
// identifiers or dates of birth), so fp works offline; Options.DataDir reads
// the original files instead, and a test checks that both give the same data.
//
// # What COMPAS is and is not
//
// COMPAS is a commercial risk-assessment tool used in Broward County,
// Florida. Its label, two_year_recid, records whether a defendant was
// re-arrested (charged with a new offence) within two years of the
// assessment. It does not record whether the person re-offended: arrests
// depend on policing, which differs between groups, so the label itself may
// carry the bias a fairness method seeks to measure. The data also covers a
// single county and period. COMPAS is a contested benchmark; use it to
// compare methods, not to draw conclusions about people or about recidivism.
//
// # Encodings
//
//	compas      6,172 rows, dim 12: filtered as ProPublica did; a = 1 iff race is African-American
//	adult-*     paper preset: adult.data, White and Black rows, 30,940 rows, dim 93,
//	            "?" becomes "Unknown", first sorted level of each category dropped
//	            full preset: adult.data + adult.test, rows with "?" dropped, 45,222 rows,
//	            dim 96, one column per level
//	adult-sex   a = 1 iff sex is Male
//	adult-race  a = 1 iff race is White (against Black in paper, every other race in full)
//	compas-race4  compas, race in four groups: African-American, Caucasian, Hispanic, other
//	adult-race5   adult-race, full preset, race in its five groups
//
// GroupOptions read the sensitive attribute as R ≥ 2 groups (Dataset.Groups,
// Dataset.Levels) beside the binary a: every value, listed values with the
// rest as "other", or the intersection of several columns of a file, with
// values put in groups of the user's naming first (GroupOptions.Map) and
// rare values merged into "other" (docs/method.md §1.9). A GroupRule puts
// a new row in those groups from its raw values, as the training did.
//
// Numeric columns come first in x, then the one-hot columns, named
// "column=level".
//
// # CSV and Parquet files
//
// A file whose name ends in .parquet (in any case) is read as Parquet,
// any other as CSV. Both are a RowSource: a header of column names, then
// each row's cells as text, so the coding rule, the detection of
// categorical columns, missing values and the checks of a network's
// schema are the same for both. A CSV column is numeric when all its
// non-empty values are numbers. A Parquet file's top-level columns are read
// by their physical type:
//
//	INT32, INT64            numeric (annotated integers, dates, times and timestamps by their
//	                        stored integer, unsigned as unsigned; DECIMAL by its exact value)
//	FLOAT, DOUBLE           numeric, written as the shortest decimal that reads back to the
//	                        stored value (a FLOAT as float32), so 0.1 is the 0.1 of a CSV
//	BOOLEAN                 categorical, levels "false" and "true" ("true" is coded 1 as
//	                        target or sensitive attribute)
//	BYTE_ARRAY (strings)    categorical, even when the values look like numbers; trimmed
//	INT96, FIXED_LEN_BYTE_ARRAY, DECIMAL byte arrays, a DECIMAL with a scale or precision
//	the format does not allow, nested or repeated columns:
//	                        refused when used
//
// Pages compressed with Snappy, Gzip, Brotli or Zstd are read, and
// uncompressed ones; a file with a column compressed with LZ4_RAW is
// refused (the library's decoder does not stop on a damaged LZ4 page).
//
// A null is an empty cell, as is an empty string: an error, or a dropped
// row with CSVOptions.DropMissing. Errors name the file, the 1-based row
// (Parquet has no lines) and the column. A network whose column is numeric
// refuses a Parquet string column of that name. ParquetReader reads one
// row group at a time; ParquetWriter writes rows of text cells. Every
// length a Parquet file's footer and page headers declare is checked
// against the bytes that hold it before anything of that size is
// allocated, so a damaged file is refused in one line, never read past
// memory.
//
// A CSV file is read as UTF-8: a cell or a name that is not (a file saved
// as Latin-1) is refused naming its line and column, by training and
// prediction alike, rather than read with U+FFFD in it. A first column
// without a name is the row index pandas writes (DataFrame.to_csv without
// index=False): it is left out with a note (IndexNote), in training and
// prediction alike; any other column without a name is refused.
package datasets

//go:generate go test -run=^TestEmbeddedCopies$ -update
