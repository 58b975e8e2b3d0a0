"""File access as TensorFlow's tf.gfile / tf.io.gfile (python/lib/io/file_io.py and
python/platform/gfile.py) for local paths: GFile / FastGFile / Open, and the functions of
both API generations. OSErrors become the OpError TensorFlow's file system raises
(errors._from_os_error: NotFoundError, AlreadyExistsError, PermissionDeniedError, ...)."""
import glob as _glob
import os
import shutil

from minitf.framework import errors


def _as_str(path):
    return os.fsdecode(path) if isinstance(path, bytes) else str(path)


def _os_call(path, fn, *args):
    try:
        return fn(*args)
    except OSError as e:
        raise errors._from_os_error(e, path) from None


class FileIO:
    """A file opened lazily on its first read or write, as TensorFlow's FileIO:
    mode "r"/"rb" (read), "w"/"wb" (truncate), "a"/"ab" (append), "r+"/"w+"/"a+";
    text modes read str, binary modes bytes; write() takes str or bytes.
    Reading a missing file raises NotFoundError (at the first read); reading a file
    opened for writing PermissionDeniedError("File isn't open for reading"), and
    writing one opened for reading PermissionDeniedError("File isn't open for writing")."""

    def __init__(self, name, mode):
        self.__name = name
        self.__mode = mode
        self._f = None
        self._read_check_passed = mode in ("r", "r+", "rb", "rb+", "w+", "a+", "wb+", "ab+")
        self._write_check_passed = mode not in ("r", "rb")
        self._binary = "b" in mode

    @property
    def name(self):
        """The file's name."""
        return self.__name

    @property
    def mode(self):
        """The mode the file was opened with."""
        return self.__mode

    def _open(self):
        if self._f is None:
            path = _as_str(self.__name)
            mode = self.__mode.replace("b", "") + "b"
            self._f = _os_call(path, open, path, mode)
        return self._f

    def _preread_check(self):
        if not self._read_check_passed:
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        return self._open()

    def _prewrite_check(self):
        if not self._write_check_passed:
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        return self._open()

    def _prepare_value(self, val):
        return val.decode("utf-8") if not self._binary else val

    def size(self):
        """The file's length in bytes."""
        return stat(self.__name).length

    def write(self, file_content):
        """Writes str (as UTF-8) or bytes at the end of what was written."""
        f = self._prewrite_check()
        if isinstance(file_content, str):
            file_content = file_content.encode("utf-8")
        f.write(bytes(file_content))

    def read(self, n=-1):
        """Up to n bytes (all the rest when n is -1), as str or bytes per the mode."""
        f = self._preread_check()
        return self._prepare_value(f.read() if n == -1 else f.read(n))

    def seek(self, offset=None, whence=0, position=None):
        """Moves to `offset` from the start (whence 0), the current position (1) or the end
        (2); `position` is the deprecated name of `offset`."""
        f = self._preread_check()
        if offset is None and position is None:
            raise TypeError("seek(): offset argument required")
        if offset is not None and position is not None:
            raise TypeError("seek(): offset and position may not be set simultaneously.")
        if position is not None:
            offset = position
        if whence not in (0, 1, 2):
            raise errors.InvalidArgumentError(None, None,
                                              "Invalid whence argument: {}. Valid values are 0, "
                                              "1, or 2.".format(whence))
        f.seek(offset, whence)

    def readline(self):
        """The next line with its newline ("" or b"" at the end)."""
        return self._prepare_value(self._preread_check().readline())

    def readlines(self):
        """All the remaining lines."""
        return [self._prepare_value(x) for x in self._preread_check().readlines()]

    def tell(self):
        """The current position in bytes."""
        if self._read_check_passed:
            return self._preread_check().tell()
        return self._prewrite_check().tell()

    def __enter__(self):
        return self

    def __exit__(self, unused_type, unused_value, unused_traceback):
        self.close()

    def __iter__(self):
        return self

    def __next__(self):
        retval = self.readline()
        if not retval:
            raise StopIteration()
        return retval

    def next(self):
        """The next line (Python 2 name of __next__)."""
        return self.__next__()

    def flush(self):
        """Writes buffered data to the file."""
        if self._f is not None:
            self._f.flush()

    def close(self):
        """Flushes and closes the file."""
        if self._f is not None:
            self._f.close()
            self._f = None

    def seekable(self):
        """True: local files can seek."""
        return True


class GFile(FileIO):
    """tf.gfile.GFile / tf.io.gfile.GFile / tf.gfile.Open: a file (see FileIO)."""

    def __init__(self, name, mode="r"):
        super().__init__(name=name, mode=mode)


class FastGFile(FileIO):
    """tf.gfile.FastGFile (deprecated in TF for GFile, which it equals)."""

    def __init__(self, name, mode="r"):
        super().__init__(name=name, mode=mode)


Open = GFile


class FileStatistics:
    """What Stat returns: length (bytes), mtime_nsec, is_directory."""

    def __init__(self, length=0, mtime_nsec=0, is_directory=False):
        self.length = length
        self.mtime_nsec = mtime_nsec
        self.is_directory = is_directory


def file_exists(filename):
    """Whether `filename` (file or directory) exists (tf.gfile.Exists)."""
    return file_exists_v2(filename)


def file_exists_v2(path):
    """Whether `path` exists (tf.io.gfile.exists)."""
    return os.path.exists(_as_str(path))


def delete_file(filename):
    """Deletes a file (tf.gfile.Remove); NotFoundError when missing."""
    delete_file_v2(filename)


def delete_file_v2(path):
    """Deletes a file (tf.io.gfile.remove); NotFoundError when missing."""
    p = _as_str(path)
    _os_call(p, os.remove, p)


def get_matching_files(filename):
    """The paths matching a glob pattern or list of patterns, pattern after pattern, each
    one's matches in directory order (tf.gfile.Glob). No match is an empty list."""
    return get_matching_files_v2(filename)


def get_matching_files_v2(pattern):
    """The paths matching a glob pattern or list of patterns (tf.io.gfile.glob)."""
    pats = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    out = []
    for p in pats:
        p = _as_str(p)
        # Each pattern's matches in directory order, as TensorFlow's (not sorted).
        out.extend(_glob.glob(p))
    return out


def create_dir(dirname):
    """Makes one directory (tf.gfile.MkDir); NotFoundError when its parent is missing."""
    create_dir_v2(dirname)


def create_dir_v2(path):
    """Makes one directory (tf.io.gfile.mkdir); nothing happens when the path exists
    already (even as a file), as in TensorFlow."""
    p = _as_str(path)
    if os.path.exists(p):
        return
    _os_call(p, os.mkdir, p)


def recursive_create_dir(dirname):
    """Makes a directory and its missing parents; fine when it exists (tf.gfile.MakeDirs)."""
    recursive_create_dir_v2(dirname)


def recursive_create_dir_v2(path):
    """Makes a directory and its missing parents (tf.io.gfile.makedirs)."""
    p = _as_str(path)
    # TensorFlow's words for a path component that is a file.
    parts = p.split("/")
    for i in range(1, len(parts)):
        prefix = "/".join(parts[:i])
        if prefix and os.path.exists(prefix) and not os.path.isdir(prefix):
            raise errors.FailedPreconditionError(None, None, "%s is not a directory" % prefix)
    _os_call(p, os.makedirs, p, 0o755, True)


def copy(oldpath, newpath, overwrite=False):
    """Copies a file (tf.gfile.Copy); AlreadyExistsError when `newpath` exists and not
    `overwrite`; NotFoundError when `oldpath` is missing."""
    copy_v2(oldpath, newpath, overwrite)


def copy_v2(src, dst, overwrite=False):
    """Copies a file (tf.io.gfile.copy)."""
    src, dst = _as_str(src), _as_str(dst)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")
    _os_call(src, shutil.copyfile, src, dst)


def rename(oldname, newname, overwrite=False):
    """Renames a file or directory (tf.gfile.Rename); AlreadyExistsError when `newname`
    exists and not `overwrite`."""
    rename_v2(oldname, newname, overwrite)


def rename_v2(src, dst, overwrite=False):
    """Renames a file or directory (tf.io.gfile.rename)."""
    src, dst = _as_str(src), _as_str(dst)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")
    _os_call(src, os.rename, src, dst)


def delete_recursively(dirname):
    """Deletes a directory tree (tf.gfile.DeleteRecursively); NotFoundError("<path> not
    found") when missing."""
    delete_recursively_v2(dirname)


def delete_recursively_v2(path):
    """Deletes a directory tree or a file (tf.io.gfile.rmtree)."""
    p = _as_str(path)
    if not os.path.exists(p):
        raise errors.NotFoundError(None, None, "%s not found" % p)
    if os.path.isdir(p) and not os.path.islink(p):
        _os_call(p, shutil.rmtree, p)
    else:
        _os_call(p, os.remove, p)


def is_directory(dirname):
    """Whether `dirname` is a directory (tf.gfile.IsDirectory)."""
    return is_directory_v2(dirname)


def is_directory_v2(path):
    """Whether `path` is a directory (tf.io.gfile.isdir)."""
    return os.path.isdir(_as_str(path))


def list_directory(dirname):
    """The names in a directory, without "." and ".." (tf.gfile.ListDirectory);
    NotFoundError("Could not find directory <dirname>") when it is not a directory."""
    return list_directory_v2(dirname)


def list_directory_v2(path):
    """The names in a directory (tf.io.gfile.listdir)."""
    p = _as_str(path)
    if not os.path.isdir(p):
        raise errors.NotFoundError(None, None, "Could not find directory {}".format(p))
    return _os_call(p, os.listdir, p)


def join(path, *paths):
    """Joins path components with "/" (tf.io.gfile.join)."""
    return os.path.join(_as_str(path), *[_as_str(p) for p in paths])


def walk(top, in_order=True):
    """Yields (dirname, subdirectory names, file names) for `top` and every directory
    below it, parents first when in_order else children first (tf.gfile.Walk). A
    missing `top` yields nothing."""
    return walk_v2(top, topdown=in_order)


def walk_v2(top, topdown=True, onerror=None):
    """tf.io.gfile.walk: as walk, `topdown` for in_order; `onerror(error)` is called with
    the NotFoundError when `top` cannot be listed and nothing is yielded (TensorFlow 2.21
    raises UnboundLocalError after calling onerror, a bug not copied here)."""
    top = _as_str(top)
    try:
        listing = list_directory(top)
    except errors.NotFoundError as err:
        if onerror:
            onerror(err)
        return
    files, subdirs = [], []
    for item in listing:
        (subdirs if is_directory(os.path.join(top, item)) else files).append(item)
    here = (top, subdirs, files)
    if topdown:
        yield here
    for sub in subdirs:
        yield from walk_v2(os.path.join(top, sub), topdown, onerror)
    if not topdown:
        yield here


def stat(filename):
    """FileStatistics of a file or directory (tf.gfile.Stat); NotFoundError when missing."""
    return stat_v2(filename)


def stat_v2(path):
    """FileStatistics of a file or directory (tf.io.gfile.stat)."""
    p = _as_str(path)
    st = _os_call(p, os.stat, p)
    isdir = os.path.isdir(p)
    return FileStatistics(length=0 if isdir else st.st_size, mtime_nsec=st.st_mtime_ns,
                          is_directory=isdir)


def get_registered_schemes():
    """The file system schemes this build reads: "" and "file" (local files only)."""
    return ["file", ""]
