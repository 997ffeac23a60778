//go:build linux && !vouch_osroot

package fsguard

// exactListings: a listing here says which names exist, so a name missing from it
// needs no lstat (see listedWithout).
const exactListings = true
