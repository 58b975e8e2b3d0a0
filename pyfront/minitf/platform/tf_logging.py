"""tf.compat.v1.logging: the "tensorflow" Python logger and TF1's helpers around it.

Mirrors tensorflow/python/platform/tf_logging.py: messages go to the standard `logging`
logger named "tensorflow"; when the root logger has no handlers, a stderr handler with
logging.BASIC_FORMAT is attached on first use, so lines read "INFO:tensorflow:..." as
TensorFlow's do. The level starts unset (WARNING from the root) as in TensorFlow: call
set_verbosity(INFO) to see info messages.
"""
import logging as _logging
import os as _os
import sys as _sys
import threading as _threading
import time as _time

DEBUG = _logging.DEBUG
ERROR = _logging.ERROR
FATAL = _logging.FATAL
INFO = _logging.INFO
WARN = _logging.WARN

_logger = None
_logger_lock = _threading.Lock()
_log_counter_per_token = {}
_level_names = {FATAL: "FATAL", ERROR: "ERROR", WARN: "WARN", INFO: "INFO", DEBUG: "DEBUG"}


def get_logger():
    """The logging.Logger named "tensorflow" (tf.get_logger), with a stderr handler in
    BASIC_FORMAT added once when the root logger has none (stdout and level INFO in an
    interactive interpreter)."""
    global _logger
    if _logger is not None:
        return _logger
    with _logger_lock:
        if _logger is not None:
            return _logger
        logger = _logging.getLogger("tensorflow")
        if not _logging.getLogger().handlers:
            interactive = bool(getattr(_sys, "ps1", None)) or bool(_sys.flags.interactive)
            if interactive:
                logger.setLevel(INFO)
            handler = _logging.StreamHandler(_sys.stdout if interactive else _sys.stderr)
            handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
            logger.addHandler(handler)
        _logger = logger
        return _logger


def log(level, msg, *args, **kwargs):
    """Logs msg % args at `level` (an int such as INFO)."""
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    get_logger().debug(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    get_logger().fatal(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    get_logger().info(msg, *args, **kwargs)


def warn(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


def TaskLevelStatusMessage(msg):  # noqa: N802 (TensorFlow's name)
    """Logs msg as an error, as TensorFlow does."""
    error(msg)


def flush():
    """Not implemented in TensorFlow either (NotImplementedError)."""
    raise NotImplementedError()


def vlog(level, msg, *args, **kwargs):
    """log() under TensorFlow's other name."""
    get_logger().log(level, msg, *args, **kwargs)


def _caller_file_and_line():
    # The frame that called log_every_n / log_first_n: the key of its call counter.
    f = _sys._getframe(2)
    return (f.f_code.co_filename, f.f_lineno) if f else ("<unknown>", 0)


def _next_count(token):
    _log_counter_per_token[token] = 1 + _log_counter_per_token.get(token, -1)
    return _log_counter_per_token[token]


def log_every_n(level, msg, n, *args):
    """Logs the 1st, (n+1)th, (2n+1)th ... call made from one source line."""
    count = _next_count(_caller_file_and_line())
    log_if(level, msg, not (count % n), *args)


def log_first_n(level, msg, n, *args):
    """Logs only the first n calls made from one source line."""
    count = _next_count(_caller_file_and_line())
    log_if(level, msg, count < n, *args)


def log_if(level, msg, condition, *args):
    """Logs msg % args at `level` when condition holds."""
    if condition:
        vlog(level, msg, *args)


def google2_log_prefix(level, timestamp=None, file_and_line=None):
    """TensorFlow's glog-style prefix "IMMDD HH:MM:SS.micros thread file:line] "."""
    now = timestamp or _time.time()
    t = _time.localtime(now)
    filename, line = file_and_line or ("<unknown>", 0)
    severity = _level_names.get(level, "I")[0]
    return "%c%02d%02d %02d:%02d:%02d.%06d %5d %s:%d] " % (
        severity, t[1], t[2], t[3], t[4], t[5], int(1e6 * (now % 1.0)),
        _threading.get_ident() & (2 * _sys.maxsize + 1), _os.path.basename(filename), line)


def get_verbosity():
    """The effective level of the "tensorflow" logger."""
    return get_logger().getEffectiveLevel()


def set_verbosity(v):
    """Sets the level of the "tensorflow" logger (DEBUG, INFO, WARN, ERROR, FATAL)."""
    get_logger().setLevel(v)


__all__ = ["DEBUG", "ERROR", "FATAL", "INFO", "WARN", "TaskLevelStatusMessage", "debug",
           "error", "fatal", "flush", "get_logger", "get_verbosity", "info", "log",
           "log_every_n", "log_first_n", "log_if", "set_verbosity", "vlog", "warn", "warning"]
