"""TensorBoard event files: TFRecord framing of tensorflow.Event protos."""
import atexit
import os
import socket
import struct
import threading
import time
import weakref

from minitf.core.framework import graph_pb2
from minitf.core.util.event_pb2 import Event, SessionLog, TaggedRunMetadata


def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    """CRC-32C (Castagnoli) of `data`, as TFRecord uses."""
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TFRecord's masked CRC: rotate right by 15 bits, add 0xa282ead8."""
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord(data):
    """One TFRecord: length, masked CRC of the length, data, masked CRC."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data +
            struct.pack("<I", masked_crc32c(data)))


class FileWriter:
    """Writes Event protos to an event file in `logdir`
    (tf.compat.v1.summary.FileWriter).

    The file is `events.out.tfevents.<seconds>.<hostname><filename_suffix>`;
    its first event carries file_version "brain.Event:2". Events are buffered
    (up to `max_queue` of them, or `flush_secs` seconds) and written on
    flush() / close(). Thread-safe.

    Args:
      logdir: directory, created when missing.
      graph: optional Graph (or GraphDef) written at once (add_graph).
    Raises:
      OSError naming the path when `logdir` cannot be created or written.
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        self._logdir = str(logdir)
        self._filename_suffix = filename_suffix
        self._lock = threading.Lock()
        self._queue = []
        self._max_queue = max_queue
        self._flush_secs = flush_secs
        self._closed = True
        self._open_file()
        _LIVE_WRITERS.add(self)
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)
            # As TF's FileWriter: a Graph given here is also written as a MetaGraphDef.
            from minitf.framework import meta_graph, ops
            if isinstance(graph, ops.Graph):
                self.add_meta_graph(meta_graph.create_meta_graph_def(graph=graph))

    def _open_file(self):
        """A new events.out.tfevents.<time>.<host><suffix> file starting with the
        file_version event."""
        try:
            os.makedirs(self._logdir, exist_ok=True)
            name = "events.out.tfevents.%010d.%s%s" % (int(time.time()), socket.gethostname(),
                                                       self._filename_suffix or "")
            self._path = os.path.join(self._logdir, name)
            self._file = open(self._path, "wb")
        except OSError as e:
            raise OSError(e.errno, "Cannot write TensorBoard events to %r: %s" %
                          (self._logdir, e.strerror), self._logdir) from e
        self._last_flush = time.time()
        self._closed = False
        self._write(Event(wall_time=time.time(), file_version="brain.Event:2"))
        self.flush()

    def get_logdir(self):
        """The directory this writer writes to."""
        return self._logdir

    def _write(self, event):
        with self._lock:
            if self._closed:
                raise RuntimeError("FileWriter %s is closed" % self._path)
            self._queue.append(tfrecord(event.SerializeToString()))
            due = (len(self._queue) >= self._max_queue or
                   time.time() - self._last_flush >= self._flush_secs)
        if due:
            self.flush()

    def add_event(self, event):
        """Writes an Event proto as it is."""
        self._write(event)

    def add_summary(self, summary, global_step=None):
        """Writes a Summary (proto or serialized bytes, as Session.run returns
        a summary op's value) as an Event at `global_step`."""
        if isinstance(summary, (bytes, bytearray)):
            from minitf.core.framework.summary_pb2 import Summary
            summary = Summary.FromString(bytes(summary))
        ev = Event(wall_time=time.time(), summary=summary)
        if global_step is not None:
            ev.step = int(global_step)
        self._write(ev)

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Writes the GraphDef of `graph` (a Graph, or `graph_def`)."""
        if graph is not None and hasattr(graph, "as_graph_def"):
            gd = graph.as_graph_def()
        else:
            gd = graph_def if graph_def is not None else graph
        if not isinstance(gd, graph_pb2.GraphDef):
            raise TypeError("add_graph expects a Graph or a GraphDef, got %s" %
                            type(gd).__name__)
        ev = Event(wall_time=time.time(), graph_def=gd.SerializeToString())
        if global_step is not None:
            ev.step = int(global_step)
        self._write(ev)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Writes a MetaGraphDef (Event.meta_graph_def). TypeError for anything else."""
        if type(meta_graph_def).__name__ != "MetaGraphDef":
            raise TypeError("meta_graph_def must be type MetaGraphDef, saw type: %s"
                            % type(meta_graph_def))
        ev = Event(wall_time=time.time(), meta_graph_def=meta_graph_def.SerializeToString())
        if global_step is not None:
            ev.step = int(global_step)
        self._write(ev)

    def add_session_log(self, session_log, global_step=None):
        """Writes a SessionLog event."""
        ev = Event(wall_time=time.time(), session_log=session_log)
        if global_step is not None:
            ev.step = int(global_step)
        self._write(ev)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Writes a RunMetadata proto under `tag` (tagged_run_metadata)."""
        ev = Event(wall_time=time.time(), tagged_run_metadata=TaggedRunMetadata(
            tag=tag, run_metadata=run_metadata.SerializeToString()))
        if global_step is not None:
            ev.step = int(global_step)
        self._write(ev)

    def flush(self):
        """Writes the queued events to disk."""
        with self._lock:
            if self._closed:
                return
            data, self._queue = b"".join(self._queue), []
            self._last_flush = time.time()
            try:
                self._file.write(data)
                self._file.flush()
            except OSError as e:
                raise OSError(e.errno, "Cannot write TensorBoard events to %r: %s" %
                              (self._path, e.strerror), self._path) from e

    def close(self):
        """Flushes and closes the file; later add_* calls raise RuntimeError."""
        self.flush()
        with self._lock:
            if not self._closed:
                self._closed = True
                self._file.close()

    def reopen(self):
        """After close(), starts a new event file in the same logdir (as TF's FileWriter);
        does nothing while the writer is open."""
        with self._lock:
            closed = self._closed
        if closed:
            self._open_file()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# Events still queued when the interpreter exits are written then, as TF's writer thread
# has written them by the time a script ends.
_LIVE_WRITERS = weakref.WeakSet()


@atexit.register
def _flush_live_writers():
    for w in list(_LIVE_WRITERS):
        try:
            w.flush()
        except (OSError, RuntimeError):
            pass


class FileWriterCache:
    """One FileWriter per directory, shared by the hooks that write there
    (tf.compat.v1.summary.FileWriterCache; SummaryWriterCache in tf.train). A writer is
    made on first get() with the default graph, so its file starts with that graph."""

    _cache = {}
    _lock = threading.RLock()

    @staticmethod
    def clear():
        """Closes and forgets every cached writer."""
        with FileWriterCache._lock:
            for writer in FileWriterCache._cache.values():
                writer.close()
            FileWriterCache._cache = {}

    @staticmethod
    def get(logdir):
        """The FileWriter of `logdir`, made on first use."""
        from minitf.framework import ops
        with FileWriterCache._lock:
            if logdir not in FileWriterCache._cache:
                FileWriterCache._cache[logdir] = FileWriter(logdir,
                                                            graph=ops.get_default_graph())
            return FileWriterCache._cache[logdir]


__all__ = ["FileWriter", "FileWriterCache", "SessionLog", "crc32c", "masked_crc32c", "tfrecord"]
