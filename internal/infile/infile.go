// Package infile opens the files of an input trace: regular files only,
// never blocking. A named pipe (FIFO) opened for reading would block in
// open(2) until a writer came; a device (a symbolic link to /dev/zero,
// say) never ends. Both are refused before a byte is read, and ReadFile
// checks a file's size against a bound before reading it. So is a file of
// the kernel's pseudo-file systems (procfs, sysfs, debugfs, cgroupfs, …):
// it passes for a regular file, but a read of /proc/kmsg or a tracing pipe
// waits for the kernel for ever, and no trace is there.
package infile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the errors about an input that is not a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrPseudoFile is wrapped by the errors about an input on one of the
// kernel's pseudo-file systems.
var ErrPseudoFile = errors.New("a file of the kernel's pseudo-file system")

// pseudoFileSystems are the statfs(2) magic numbers of the kernel's
// pseudo-file systems (linux/magic.h), whose files stat calls regular:
// none holds a trace, and reading some blocks for ever (/proc/kmsg,
// tracefs's trace_pipe). Devices (devtmpfs is a tmpfs) are refused by
// their type instead.
var pseudoFileSystems = map[int64]string{
	0x9fa0:     "procfs (/proc)",
	0x62656572: "sysfs (/sys)",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x27e0eb:   "cgroupfs",
	0x63677270: "cgroup2fs",
	0x62656570: "configfs",
	0x1cd1:     "devpts",
	0xcafe4a11: "bpffs",
	0x6165676c: "pstore",
	0xde5e81e4: "efivarfs",
	0x65735543: "fusectl",
	0xf97cff8c: "selinuxfs",
	0x42494e4d: "binfmt_misc",
	0x6e736673: "nsfs",
}

// checkFileSystem refuses the open file f (at path) if it lies on one of
// the kernel's pseudo-file systems. It asks the open file, so a file
// swapped since its path was looked at is judged as what was opened.
func checkFileSystem(path string, f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return &fs.PathError{Op: "statfs", Path: path, Err: err}
	}
	var sfs syscall.Statfs_t
	var serr error
	// Control, not f.Fd(): Fd would make the file blocking.
	if err := rc.Control(func(fd uintptr) { serr = syscall.Fstatfs(int(fd), &sfs) }); err != nil {
		serr = err
	}
	if serr != nil {
		return &fs.PathError{Op: "statfs", Path: path, Err: serr}
	}
	if name, ok := pseudoFileSystems[int64(sfs.Type)]; ok { //nolint:unconvert // int32 on some platforms
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w, %s: no trace is there, and reading it may wait for the kernel for ever", ErrPseudoFile, name)}
	}
	return nil
}

// ErrTooLarge is wrapped by ReadFile's error about a file above its bound.
var ErrTooLarge = errors.New("file too large")

// Open opens the file at path for reading if it is a regular file
// (following symbolic links) and returns it with its FileInfo. Anything
// else is refused with an error wrapping ErrNotRegular; opening never
// blocks (O_NONBLOCK), and the type is checked again on the open file, so a
// file swapped after the first check is refused too.
func Open(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := CheckRegular(path, st); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err = f.Stat()
	if err == nil {
		err = CheckRegular(path, st)
	}
	if err == nil {
		err = checkFileSystem(path, f)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// CheckRegular returns nil if st (of path) is a regular file, else an
// error naming path and what it is.
func CheckRegular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(st.Mode()))}
}

// Kind names the type of a file mode for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// ReadFile reads the regular file at path whole if it holds at most max
// bytes; a larger one is refused, before it is read, with an error
// wrapping ErrTooLarge.
func ReadFile(path string, max int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %d bytes, at most %d expected", ErrTooLarge, st.Size(), max)}
	}
	// The size as stat says, plus one byte to see a file that grew.
	b := make([]byte, 0, st.Size()+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if int64(len(b)) > max {
			return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it grew past %d bytes while read", ErrTooLarge, max)}
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
