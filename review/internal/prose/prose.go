// Package prose joins the words the loaders' sentences list: "hooks, servers and skills".
package prose

import "strings"

// List joins xs as a sentence names them, with conj ("and", "or") before the last:
// "a", "a and b", "a, b and c". none is what it says of an empty list.
func List(xs []string, conj, none string) string {
	switch len(xs) {
	case 0:
		return none
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + conj + " " + xs[len(xs)-1]
}
