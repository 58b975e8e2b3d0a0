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

    Attributes:
      message: the runtime's error message.
      op: the Operation that failed, or None when unknown.
      node_def: the failed op's NodeDef proto, or None.
      error_code: the TF_Code integer (e.g. 3 for INVALID_ARGUMENT).
    """

    def __init__(self, node_def, op, message, error_code):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    def __reduce__(self):
        return (type(self), (self._node_def, self._op, self._message, self._error_code)) \
            if type(self) is OpError else (type(self), (self._node_def, self._op, self._message))

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

    def __str__(self):
        return self._message


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operator (bool(), iteration) that a symbolic graph tensor
    cannot support (TensorFlow's errors_impl.OperatorNotAllowedInGraphError)."""


def _make_class(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)

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
    """The TF_Code integer for an OpError subclass (KeyError if unknown)."""
    return _EXCEPTION_CLASS_TO_CODE[cls]


def _status_to_exception(code, message):
    """Called by the SWIG module for a non-OK TF_Status: the exception to raise."""
    cls = _CODE_TO_EXCEPTION_CLASS.get(code)
    if cls is None:
        return UnknownError(None, None, message)
    return cls(None, None, message)
