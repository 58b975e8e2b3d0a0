"""The `checkpoint` state file and checkpoint files on disk (TensorFlow's
training/checkpoint_management.py): tf.train.latest_checkpoint, get_checkpoint_state,
update_checkpoint_state, checkpoint_exists, get_checkpoint_mtimes, remove_checkpoint.

The state file is a CheckpointState proto in protobuf text format, written atomically
(a temporary file renamed into place), with paths relative to its directory when the
Saver was asked for relative paths.
"""
import glob
import logging
import os
import re
import time

from google.protobuf import text_format

from minitf.framework import errors
from minitf.core.protobuf import saver_pb2
from minitf.training.checkpoint_state_pb2 import CheckpointState

_log = logging.getLogger("minitf")


def _get_checkpoint_filename(save_dir, latest_filename):
    return os.path.join(save_dir, "checkpoint" if latest_filename is None else latest_filename)


def _matching_files(pattern):
    return glob.glob(pattern)


def _atomic_write(path, text):
    """Writes `text` to a temporary file beside `path`, then renames it over `path` (as TF's
    WriteStringToFile + RenameFile). OSError becomes TF's OpError for the file."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(text)
    except OSError as e:
        raise errors._from_os_error(e, tmp) from None
    try:
        os.replace(tmp, path)
    except OSError as e:
        raise errors._from_os_error(e, tmp) from None


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
    """A CheckpointState whose last path is model_checkpoint_path (appended when missing).
    With a relative save_dir, relative paths are made relative to it. Raises ValueError
    when timestamps are given but not one per path."""
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    if not all_model_checkpoint_paths or \
            all_model_checkpoint_paths[-1] != model_checkpoint_path:
        all_model_checkpoint_paths.append(model_checkpoint_path)
    if all_model_checkpoint_timestamps and \
            len(all_model_checkpoint_timestamps) != len(all_model_checkpoint_paths):
        raise ValueError("Checkpoint timestamps, if provided, must match checkpoint paths (got "
                         "paths %s and timestamps %s)" % (all_model_checkpoint_paths,
                                                          all_model_checkpoint_timestamps))
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        for i, p in enumerate(all_model_checkpoint_paths):
            if not os.path.isabs(p):
                all_model_checkpoint_paths[i] = os.path.relpath(p, save_dir)
    return CheckpointState(model_checkpoint_path=model_checkpoint_path,
                           all_model_checkpoint_paths=all_model_checkpoint_paths,
                           all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
                           last_preserved_timestamp=last_preserved_timestamp)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
    """Writes the state file `save_dir/latest_filename` ("checkpoint" by default) naming
    model_checkpoint_path as the latest (tf.compat.v1.train.update_checkpoint_state).
    Raises RuntimeError when the checkpoint path is the state file's own path."""
    update_checkpoint_state_internal(
        save_dir=save_dir, model_checkpoint_path=model_checkpoint_path,
        all_model_checkpoint_paths=all_model_checkpoint_paths,
        latest_filename=latest_filename, save_relative_paths=False,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)


def update_checkpoint_state_internal(save_dir, model_checkpoint_path,
                                     all_model_checkpoint_paths=None, latest_filename=None,
                                     save_relative_paths=False,
                                     all_model_checkpoint_timestamps=None,
                                     last_preserved_timestamp=None):
    """update_checkpoint_state with save_relative_paths: absolute paths are written relative
    to save_dir."""
    state_path = _get_checkpoint_filename(save_dir, latest_filename)
    paths = list(all_model_checkpoint_paths or [])
    if save_relative_paths:
        rel = (os.path.relpath(model_checkpoint_path, save_dir)
               if os.path.isabs(model_checkpoint_path) else model_checkpoint_path)
        paths = [os.path.relpath(p, save_dir) if os.path.isabs(p) else p for p in paths]
        ckpt = generate_checkpoint_state_proto(
            save_dir, rel, all_model_checkpoint_paths=paths,
            all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
            last_preserved_timestamp=last_preserved_timestamp)
    else:
        ckpt = generate_checkpoint_state_proto(
            save_dir, model_checkpoint_path, all_model_checkpoint_paths=paths,
            all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
            last_preserved_timestamp=last_preserved_timestamp)
    if state_path == ckpt.model_checkpoint_path:
        raise RuntimeError("Save path '%s' conflicts with path used for checkpoint state.  "
                           "Please use a different save path." % model_checkpoint_path)
    _atomic_write(state_path, text_format.MessageToString(ckpt))


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState read from `checkpoint_dir/latest_filename`, relative paths
    joined to checkpoint_dir (tf.train.get_checkpoint_state). None when the file is
    missing, unreadable or not a CheckpointState (logged as TensorFlow does); ValueError
    "Invalid checkpoint state loaded from <dir>" when it names no checkpoint."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    state_path = _get_checkpoint_filename(checkpoint_dir, latest_filename)
    if not os.path.isfile(state_path):
        return None
    try:
        with open(state_path) as f:
            content = f.read()
        ckpt = CheckpointState()
        text_format.Merge(content, ckpt)
    except (OSError, UnicodeDecodeError, text_format.ParseError) as e:
        _log.warning("%s: %s", type(e).__name__, e)
        _log.warning("%s: Checkpoint ignored", state_path)
        return None
    if not ckpt.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not os.path.isabs(ckpt.model_checkpoint_path):
        ckpt.model_checkpoint_path = os.path.join(checkpoint_dir, ckpt.model_checkpoint_path)
    for i, p in enumerate(ckpt.all_model_checkpoint_paths):
        if not os.path.isabs(p):
            ckpt.all_model_checkpoint_paths[i] = os.path.join(checkpoint_dir, p)
    return ckpt


def _prefix_to_checkpoint_path(prefix, format_version):
    if format_version == saver_pb2.SaverDef.V2:
        return prefix + ".index"
    return prefix


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint named by the state file of `checkpoint_dir`, or
    None when there is no state file or its checkpoint's files are gone
    (tf.train.latest_checkpoint)."""
    ckpt = get_checkpoint_state(checkpoint_dir, latest_filename)
    if ckpt and ckpt.model_checkpoint_path:
        path = ckpt.model_checkpoint_path
        if _matching_files(_prefix_to_checkpoint_path(path, saver_pb2.SaverDef.V2)) or \
                _matching_files(path):
            return path
        _log.error("Couldn't match files for checkpoint %s", path)
    return None


def checkpoint_exists_internal(checkpoint_prefix):
    """True when `<prefix>.index` (V2) or the V1 file `prefix` exists (glob patterns
    allowed)."""
    return bool(_matching_files(_prefix_to_checkpoint_path(checkpoint_prefix,
                                                           saver_pb2.SaverDef.V2))
                or _matching_files(checkpoint_prefix))


def checkpoint_exists(checkpoint_prefix):
    """tf.compat.v1.train.checkpoint_exists (deprecated in TensorFlow): see
    checkpoint_exists_internal."""
    return checkpoint_exists_internal(checkpoint_prefix)


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification times (seconds since the epoch, float) of the checkpoints named by
    the prefixes that exist (tf.compat.v1.train.get_checkpoint_mtimes)."""
    mtimes = []

    def match_maybe_append(pathname):
        fnames = _matching_files(pathname)
        if fnames:
            mtimes.append(os.stat(fnames[0]).st_mtime_ns / 1e9)
            return True
        return False

    for prefix in checkpoint_prefixes:
        if match_maybe_append(_prefix_to_checkpoint_path(prefix, saver_pb2.SaverDef.V2)):
            continue
        match_maybe_append(prefix)
    return mtimes


def _delete_file_if_exists(filespec):
    for pathname in _matching_files(filespec):
        try:
            os.remove(pathname)
        except FileNotFoundError:
            _log.warning("Hit NotFoundError when deleting '%s', possibly because another "
                         "process/thread is also deleting/moving the same file", pathname)


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=saver_pb2.SaverDef.V2,
                      meta_graph_suffix="meta"):
    """Deletes a checkpoint's files: `<prefix>.meta`, `<prefix>.index` and its data shards
    (tf.compat.v1.train.remove_checkpoint)."""
    _delete_file_if_exists(meta_graph_filename(checkpoint_prefix, meta_graph_suffix))
    if checkpoint_format_version == saver_pb2.SaverDef.V2:
        _delete_file_if_exists(checkpoint_prefix + ".index")
        _delete_file_if_exists(checkpoint_prefix + ".data-?????-of-?????")
    else:
        _delete_file_if_exists(checkpoint_prefix)


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """`<checkpoint>.meta` (a sharded V1 name's "-?????-of-NNNNN" dropped first)."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])


__all__ = ["latest_checkpoint", "get_checkpoint_state", "update_checkpoint_state",
           "checkpoint_exists", "get_checkpoint_mtimes", "remove_checkpoint",
           "meta_graph_filename", "generate_checkpoint_state_proto"]


def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1,
                            timeout=None):
    """Polls `checkpoint_dir` until its latest checkpoint differs from `last_checkpoint`
    (tf.compat.v1.train.wait_for_new_checkpoint's behaviour, as checkpoints_iterator uses it).

    Args: checkpoint_dir (str), last_checkpoint (prefix or None), seconds_to_sleep between
    polls, timeout (seconds; None waits forever). Returns the new checkpoint prefix, or None
    once sleeping again would pass the timeout.
    """
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new checkpoint prefix of `checkpoint_dir` as it appears
    (tf.compat.v1.train.checkpoints_iterator).

    Args:
      checkpoint_dir: the directory whose `checkpoint` state file names the latest checkpoint.
      min_interval_secs: at least this many seconds pass between two yields.
      timeout: the most seconds to wait for the next checkpoint; None waits forever.
      timeout_fn: called when a wait times out; the iterator ends when it returns True and
        waits again when it returns False. Without one, a timeout ends the iterator.
    Yields:
      str checkpoint prefixes, each newer than the last.
    """
    checkpoint_path = None
    while True:
        new_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, timeout=timeout)
        if new_path:
            start = time.time()
            checkpoint_path = new_path
            yield checkpoint_path
            wait = start + min_interval_secs - time.time()
            if wait > 0:
                time.sleep(wait)
        elif timeout_fn is None:
            return
        if timeout_fn is not None and timeout_fn():
            return
