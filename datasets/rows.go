package datasets

// OriginalFile is the published file a built-in dataset's rows come from
// (the training rows for Adult), or "" for a name that is not built in.
func OriginalFile(name string) string {
	switch name {
	case "compas":
		return compasFile
	case "adult-sex", "adult-race":
		return adultDataFile
	}
	return ""
}
