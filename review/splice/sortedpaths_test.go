package splice

import "sort"

func sortedPaths(files []File) []File {
	out := append([]File(nil), files...)
	sort.Slice(out, func(i, j int) bool { return lessUTF16(out[i].Path, out[j].Path) })
	return out
}
