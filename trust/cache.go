package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"vouch/internal/atomicfile"
)

// The folded state of a ledger is cached in the home so that `check` does not parse a
// large ledger on every call. One cache file per ledger path:
//
//	<hex sha256 of the header JSON> SP <header JSON> LF
//	<index: Shards entries of 44 bytes: offset u64, length u32, sha256 of the shard>
//	<shard data>
//
// The header names the ledger's identity when it was folded (size, mtime, ctime, inode,
// device, and the SHA-256 of its last 8 KiB) and the trust pin it was folded under.
// Components are sharded by package name, about four shards a package, so a check reads
// the header, one index entry and one small shard, whatever the ledger's size. Anything
// that does not match (identity, pin, a checksum, a decode) discards the cache: the
// ledger is parsed again and the cache rewritten atomically. A cache is never a source of
// truth, only a faster way to the same fold.

const (
	cacheVersion   = 4
	minShards      = 256
	maxShards      = 1 << 18
	indexEntry     = 44
	cacheTailBytes = 8 << 10
	maxCacheHeader = 1 << 20
	maxCacheBytes  = 256 << 20
)

// fileID is what changes when a ledger file changes.
type fileID struct {
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime_ns"`
	Ctime int64  `json:"ctime_ns"`
	Ino   uint64 `json:"ino"`
	Dev   uint64 `json:"dev"`
	Tail  string `json:"tail_sha256"`
}

type shardRef struct {
	Off, Len int64
	SHA256   [32]byte
}

type cacheHeader struct {
	Version   int       `json:"v"`
	Path      string    `json:"path"`
	ID        fileID    `json:"id"`
	Pin       ledgerPin `json:"pin"`
	Team      bool      `json:"team"`
	Count     int       `json:"count"`
	Total     int       `json:"total"`
	Rewritten bool      `json:"rewritten"`
	Shards    int       `json:"shards"`
}

func shardOf(pkg string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(pkg))
	return int(h.Sum32() % uint32(n))
}

// shardCount makes about four shards a package, so that the shard a check reads holds
// its package and rarely another: its cost is the package's, not the ledger's.
func shardCount(pkgs int) int {
	n := minShards
	for n < pkgs*4 && n < maxShards {
		n *= 2
	}
	return n
}

func (t *Trust) cachePath(ledger string) string {
	sum := sha256.Sum256([]byte(ledger))
	return filepath.Join(t.opts.Home, "cache", "ledger-"+hex.EncodeToString(sum[:16])+".fold")
}

// identify stats an open ledger and digests its tail.
func identify(f *os.File, st os.FileInfo) (fileID, error) {
	id := fileID{Size: st.Size(), Mtime: st.ModTime().UnixNano()}
	id.Ino, id.Dev, id.Ctime = statIdentity(st)
	n := min(st.Size(), cacheTailBytes)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, st.Size()-n); err != nil && !errors.Is(err, io.EOF) {
		return id, err
	}
	h := sha256.Sum256(buf)
	id.Tail = hex.EncodeToString(h[:])
	return id, nil
}

func tailOf(data []byte) string {
	n := min(len(data), cacheTailBytes)
	h := sha256.Sum256(data[len(data)-n:])
	return hex.EncodeToString(h[:])
}

// cachedLedger is a valid cache file, its shards read on demand.
type cachedLedger struct {
	path   string
	hdr    cacheHeader
	body   int64 // offset of shard 0
	loaded map[int]map[string]map[string]*compFold
}

// openCache returns the cache for ledger if it matches id and pin, else nil.
func (t *Trust) openCache(ledger string, id fileID, pin ledgerPin, team bool) *cachedLedger {
	p := t.cachePath(ledger)
	f, _, err := atomicfile.OpenRegular(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, 0, 4<<10)
	chunk := make([]byte, 4<<10)
	nl := -1
	for nl < 0 && len(buf) < maxCacheHeader {
		n, err := f.Read(chunk)
		buf = append(buf, chunk[:n]...)
		nl = bytes.IndexByte(buf, '\n')
		if err != nil {
			break
		}
	}
	if nl < 0 {
		return nil
	}
	line := buf[:nl]
	sum, js, ok := bytes.Cut(line, []byte(" "))
	if !ok {
		return nil
	}
	h := sha256.Sum256(js)
	if hex.EncodeToString(h[:]) != string(sum) {
		return nil
	}
	var hdr cacheHeader
	if json.Unmarshal(js, &hdr) != nil || hdr.Version != cacheVersion || hdr.Path != ledger ||
		hdr.ID != id || hdr.Pin != pin || hdr.Team != team || hdr.Shards < minShards || hdr.Shards > maxShards {
		return nil
	}
	return &cachedLedger{path: p, hdr: hdr, body: int64(nl) + 1, loaded: map[int]map[string]map[string]*compFold{}}
}

// ref reads one index entry.
func (c *cachedLedger) ref(f *os.File, i int) (shardRef, bool) {
	var b [indexEntry]byte
	if _, err := f.ReadAt(b[:], c.body+int64(i)*indexEntry); err != nil {
		return shardRef{}, false
	}
	r := shardRef{Off: int64(binary.BigEndian.Uint64(b[0:8])), Len: int64(binary.BigEndian.Uint32(b[8:12]))}
	copy(r.SHA256[:], b[12:])
	return r, r.Off >= 0 && r.Len <= maxCacheBytes
}

// shard returns one shard's packages; ok is false when the cache turned out damaged.
func (c *cachedLedger) shard(i int) (map[string]map[string]*compFold, bool) {
	if m, ok := c.loaded[i]; ok {
		return m, true
	}
	f, _, err := atomicfile.OpenRegular(c.path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	ref, ok := c.ref(f, i)
	if !ok {
		return nil, false
	}
	// Every entry is checked, an empty shard's too (it names the hash of no bytes), so a
	// zeroed index cannot pass for empty shards.
	m := map[string]map[string]*compFold{}
	buf := make([]byte, ref.Len)
	if _, err := f.ReadAt(buf, c.body+int64(c.hdr.Shards)*indexEntry+ref.Off); err != nil && !(ref.Len == 0 && errors.Is(err, io.EOF)) {
		return nil, false
	}
	if sha256.Sum256(buf) != ref.SHA256 {
		return nil, false
	}
	if ref.Len > 0 && json.Unmarshal(buf, &m) != nil {
		return nil, false
	}
	for name := range m {
		if shardOf(name, c.hdr.Shards) != i {
			return nil, false
		}
	}
	c.loaded[i] = m
	return m, true
}

// pkg returns one package's component states.
func (c *cachedLedger) pkg(name string) (map[string]*compFold, bool) {
	m, ok := c.shard(shardOf(name, c.hdr.Shards))
	return m[name], ok
}

// full decodes every shard into one fold.
func (c *cachedLedger) full() (*fold, bool) {
	f := newFold(c.hdr.Team)
	f.Count = c.hdr.Count
	for i := 0; i < c.hdr.Shards; i++ {
		m, ok := c.shard(i)
		if !ok {
			return nil, false
		}
		for pkg, comps := range m {
			f.Comps[pkg] = comps
		}
	}
	return f, true
}

// writeCache stores f as the folded state of ledger at id. Best effort: a home that
// cannot take it only costs the next call a parse.
func (t *Trust) writeCache(ledger string, id fileID, pin ledgerPin, total int, rewritten bool, f *fold) {
	n := shardCount(len(f.Comps))
	shards := make([]map[string]map[string]*compFold, n)
	for pkg, comps := range f.Comps {
		i := shardOf(pkg, n)
		if shards[i] == nil {
			shards[i] = map[string]map[string]*compFold{}
		}
		shards[i][pkg] = comps
	}
	hdr := cacheHeader{Version: cacheVersion, Path: ledger, ID: id, Pin: pin, Team: f.Team, Count: f.Count,
		Total: total, Rewritten: rewritten, Shards: n}
	index := make([]byte, n*indexEntry)
	var body bytes.Buffer
	for i, m := range shards {
		var b []byte
		if m != nil {
			var err error
			if b, err = json.Marshal(m); err != nil || len(b) > maxCacheBytes {
				return
			}
		}
		e := index[i*indexEntry:]
		binary.BigEndian.PutUint64(e[0:8], uint64(body.Len()))
		binary.BigEndian.PutUint32(e[8:12], uint32(len(b)))
		h := sha256.Sum256(b)
		copy(e[12:indexEntry], h[:])
		body.Write(b)
	}
	js, err := json.Marshal(hdr)
	if err != nil {
		return
	}
	h := sha256.Sum256(js)
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s %s\n", hex.EncodeToString(h[:]), js)
	out.Write(index)
	out.Write(body.Bytes())
	p := t.cachePath(ledger)
	if os.MkdirAll(filepath.Dir(p), 0o700) != nil {
		return
	}
	_ = atomicfile.Write(p, out.Bytes(), 0o600)
}
