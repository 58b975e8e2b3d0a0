"""Exception classes for TensorFlow status codes, as tf.errors.

A non-OK TF_Status coming out of the C API is raised as the subclass of
OpError named after its code (InvalidArgumentError for TF_INVALID_ARGUMENT,
...). Mirrors tensorflow/python/framework/errors_impl.py.
"""

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """A TensorFlow operation failed (tf.errors.OpError).

    Args/attributes:
      node_def: the failed op's NodeDef proto, or None.
      op: the Operation that failed, or None when unknown.
      message: the error message (Session.run's start "Graph execution
        error:" and name the node and where it was created, as TF 2.21).
      error_code: the TF_Code integer (e.g. 3 for INVALID_ARGUMENT).
      experimental_payloads: a dict of extra status payloads (always empty).
    str(e) is the message, followed by "Original stack trace for '<op>':"
    and the frames where the op was created when `op` is known (minitf's
    own frames are not recorded). e.args is () as in TensorFlow.
    """

    def __init__(self, node_def, op, message, error_code=None, *args):
        super().__init__()
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code
        self._experimental_payloads = {}

    def __reduce__(self):
        init_argspec = (self._node_def, self._op, self._message)
        if type(self) is OpError:
            init_argspec += (self._error_code,)
        return (type(self), init_argspec)

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    @property
    def error_code(self):
        return self._error_code

    @property
    def experimental_payloads(self):
        return self._experimental_payloads

    def __str__(self):
        if self._op is not None:
            frames = getattr(self._op, "_traceback", None) or []
            return "%s\n\nOriginal stack trace for %r:\n%s" % (
                self._message, self._op.name,
                "".join('  File "%s", line %d, in %s\n' % (f, n, fn) for f, n, fn in frames))
        return self._message


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operator (bool(), iteration) that a symbolic graph tensor
    cannot support (TensorFlow's errors_impl.OperatorNotAllowedInGraphError)."""


class InaccessibleTensorError(ValueError):
    """Fetching an op marked with Graph.prevent_fetching (a ValueError, as
    TensorFlow's errors_impl.InaccessibleTensorError)."""


def _make_class(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code, *args)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc})


CancelledError = _make_class("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _make_class("UnknownError", UNKNOWN, "Unknown error.")
InvalidArgumentError = _make_class("InvalidArgumentError", INVALID_ARGUMENT,
                                   "An operation received an invalid argument.")
DeadlineExceededError = _make_class("DeadlineExceededError", DEADLINE_EXCEEDED,
                                    "A deadline expired before the operation could complete.")
NotFoundError = _make_class("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _make_class("AlreadyExistsError", ALREADY_EXISTS,
                                 "An entity that we attempted to create already exists.")
PermissionDeniedError = _make_class("PermissionDeniedError", PERMISSION_DENIED,
                                    "The caller does not have permission to run an operation.")
UnauthenticatedError = _make_class("UnauthenticatedError", UNAUTHENTICATED,
                                   "The request does not have valid authentication credentials.")
ResourceExhaustedError = _make_class("ResourceExhaustedError", RESOURCE_EXHAUSTED,
                                     "Some resource has been exhausted.")
FailedPreconditionError = _make_class(
    "FailedPreconditionError", FAILED_PRECONDITION,
    "The system is not in a state to execute an operation (e.g. an uninitialized variable).")
AbortedError = _make_class("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _make_class("OutOfRangeError", OUT_OF_RANGE,
                              "An operation iterated past the valid input range.")
UnimplementedError = _make_class("UnimplementedError", UNIMPLEMENTED,
                                 "The operation is not implemented or supported.")
InternalError = _make_class("InternalError", INTERNAL, "The system had an internal error.")
UnavailableError = _make_class("UnavailableError", UNAVAILABLE,
                               "The runtime is currently unavailable.")
DataLossError = _make_class("DataLossError", DATA_LOSS,
                            "Unrecoverable data loss or corruption.")

_CODE_TO_EXCEPTION_CLASS = {
    CANCELLED: CancelledError, UNKNOWN: UnknownError, INVALID_ARGUMENT: InvalidArgumentError,
    DEADLINE_EXCEEDED: DeadlineExceededError, NOT_FOUND: NotFoundError,
    ALREADY_EXISTS: AlreadyExistsError, PERMISSION_DENIED: PermissionDeniedError,
    UNAUTHENTICATED: UnauthenticatedError, RESOURCE_EXHAUSTED: ResourceExhaustedError,
    FAILED_PRECONDITION: FailedPreconditionError, ABORTED: AbortedError,
    OUT_OF_RANGE: OutOfRangeError, UNIMPLEMENTED: UnimplementedError, INTERNAL: InternalError,
    UNAVAILABLE: UnavailableError, DATA_LOSS: DataLossError,
}
_EXCEPTION_CLASS_TO_CODE = {v: k for k, v in _CODE_TO_EXCEPTION_CLASS.items()}


def exception_type_from_error_code(error_code):
    """The OpError subclass for a TF_Code integer (KeyError if unknown)."""
    return _CODE_TO_EXCEPTION_CLASS[error_code]


def error_code_from_exception_type(cls):
    """The TF_Code integer for an OpError subclass; for any other class a
    UserWarning "Unknown class exception" and None, as TensorFlow."""
    try:
        return _EXCEPTION_CLASS_TO_CODE[cls]
    except KeyError:
        import warnings
        warnings.warn("Unknown class exception")
        return None


def _status_to_exception(code, message):
    """Called by the SWIG module for a non-OK TF_Status: the exception to raise."""
    cls = _CODE_TO_EXCEPTION_CLASS.get(code)
    if cls is None:
        return UnknownError(None, None, message)
    return cls(None, None, message)


def _from_os_error(err, path):
    """The OpError TensorFlow's file system raises for an OSError on `path`: TF's
    ErrnoToCode classes (the runtime's mt_errno_code) and its "<path>; <strerror>" text."""
    import errno
    by_errno = {
        errno.ENOENT: NotFoundError, errno.ENODEV: NotFoundError, errno.ENXIO: NotFoundError,
        errno.EEXIST: AlreadyExistsError, errno.EPERM: PermissionDeniedError,
        errno.EACCES: PermissionDeniedError, errno.EROFS: PermissionDeniedError,
        errno.ENOTDIR: FailedPreconditionError, errno.EISDIR: FailedPreconditionError,
        errno.ENOTEMPTY: FailedPreconditionError, errno.EBUSY: FailedPreconditionError,
        errno.ENOSPC: ResourceExhaustedError, errno.EDQUOT: ResourceExhaustedError,
        errno.EMFILE: ResourceExhaustedError, errno.ENFILE: ResourceExhaustedError,
        errno.ENAMETOOLONG: InvalidArgumentError, errno.EINVAL: InvalidArgumentError,
        errno.EFBIG: OutOfRangeError,
    }
    cls = by_errno.get(err.errno, UnknownError)
    return cls(None, None, "%s; %s" % (path, err.strerror))
