//go:build !linux

package clibench

import "errors"

func evictFiles([]string) error { return errors.New("posix_fadvise is used on Linux only") }
