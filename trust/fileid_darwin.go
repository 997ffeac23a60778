//go:build darwin

package trust

import (
	"os"
	"syscall"
)

// statIdentity is the inode, device and status-change time of a file (see fileid_linux.go).
func statIdentity(st os.FileInfo) (ino, dev uint64, ctime int64) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return sys.Ino, uint64(sys.Dev), sys.Ctimespec.Sec*1e9 + sys.Ctimespec.Nsec
	}
	return 0, 0, 0
}
