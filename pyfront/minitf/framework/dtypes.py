"""DType objects (tf.float32, ...) mirroring tensorflow/python/framework/dtypes.py.

A DType wraps a DataType enum value (types.proto / TF_DataType). Equality
accepts anything as_dtype understands: tf.float32 == np.float32 == "float32".
"""
import builtins

import numpy as np

from minitf.core.framework import types_pb2

_NAMES = {
    1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8", 7: "string",
    8: "complex64", 9: "int64", 10: "bool", 11: "qint8", 12: "quint8", 13: "qint32",
    14: "bfloat16", 15: "qint16", 16: "quint16", 17: "uint16", 18: "complex128", 19: "float16",
    20: "resource", 21: "variant", 22: "uint32", 23: "uint64",
}
# TensorFlow's DataTypeString names, used in C error messages ("dtype float").
_C_NAMES = {1: "float", 2: "double", 19: "half"}

_resource_np = np.dtype([("resource", np.ubyte)])
# TensorFlow's numpy types for the quantized dtypes: structured dtypes.
_np_qint8 = np.dtype([("qint8", np.int8)])
_np_quint8 = np.dtype([("quint8", np.uint8)])
_np_qint16 = np.dtype([("qint16", np.int16)])
_np_quint16 = np.dtype([("quint16", np.uint16)])
_np_qint32 = np.dtype([("qint32", np.int32)])
_NUMPY = {
    1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
    7: object, 8: np.complex64, 9: np.int64, 10: np.bool_, 11: _np_qint8, 12: _np_quint8,
    13: _np_qint32, 15: _np_qint16, 16: _np_quint16, 17: np.uint16, 18: np.complex128,
    19: np.float16, 22: np.uint32, 23: np.uint64,
}
# dtypes.dtype_range of TensorFlow, behind DType.limits.
_RANGE = {10: (False, True), 4: (0, 255), 17: (0, 65535), 6: (-128, 127), 5: (-32768, 32767),
          9: (-2 ** 63, 2 ** 63 - 1), 23: (0, 2 ** 64 - 1), 3: (-2 ** 31, 2 ** 31 - 1),
          22: (0, 2 ** 32 - 1), 1: (-1, 1), 2: (-1, 1), 19: (-1, 1)}


class DType:
    """A tensor element type (tf.DType).

    Attributes: name ("float32"), as_datatype_enum (1), as_numpy_dtype
    (numpy.float32), size (bytes), is_floating / is_integer / is_bool /
    is_complex / is_quantized / is_unsigned, base_dtype, real_dtype, min, max.
    """

    __slots__ = ("_type_enum",)

    def __init__(self, type_enum):
        type_enum = int(type_enum)
        if type_enum not in _NAMES and type_enum - 100 not in _NAMES:
            raise TypeError("type_enum is not a valid types_pb2.DataType: %d" % type_enum)
        self._type_enum = type_enum

    @property
    def _is_ref_dtype(self):
        return self._type_enum > 100

    @property
    def base_dtype(self):
        return as_dtype(self._type_enum - 100) if self._is_ref_dtype else self

    @property
    def _as_ref(self):
        return self if self._is_ref_dtype else as_dtype(self._type_enum + 100)

    @property
    def real_dtype(self):
        b = self.base_dtype
        return {complex64: float32, complex128: float64}.get(b, b)

    @property
    def as_datatype_enum(self):
        return self._type_enum

    @property
    def name(self):
        b = self._type_enum - 100 if self._is_ref_dtype else self._type_enum
        return _NAMES[b] + ("_ref" if self._is_ref_dtype else "")

    @property
    def as_numpy_dtype(self):
        b = self.base_dtype._type_enum
        if b == 14:
            try:
                import ml_dtypes
                return ml_dtypes.bfloat16
            except ImportError:
                raise TypeError("bfloat16 needs the ml_dtypes package") from None
        return _NUMPY[b]  # KeyError for resource/variant, as TensorFlow

    @property
    def is_bool(self):
        return self.base_dtype._type_enum == 10

    @property
    def is_floating(self):
        return self.base_dtype._type_enum in (1, 2, 14, 19)

    @property
    def is_complex(self):
        return self.base_dtype._type_enum in (8, 18)

    @property
    def is_quantized(self):
        return self.base_dtype._type_enum in (11, 12, 13, 15, 16)

    @property
    def is_integer(self):
        return self.base_dtype._type_enum in (3, 4, 5, 6, 9, 17, 22, 23)

    @property
    def is_unsigned(self):
        return self.base_dtype._type_enum in (4, 17, 22, 23)

    @property
    def is_numpy_compatible(self):
        return self.base_dtype._type_enum not in (14, 20, 21)

    @property
    def size(self):
        b = self.base_dtype._type_enum
        if b in (7, 20, 21):
            return 0  # TensorFlow's DataTypeSize: not a fixed size
        if b == 14:
            return 2
        return np.dtype(_NUMPY[b]).itemsize

    def _limit_error(self, which):
        b = self.base_dtype._type_enum
        if b in (20, 21, 14):
            return TypeError("Cannot find %s value of %s." % (which, self))
        if self.is_quantized:
            return TypeError("Cannot find %s value of %s with quantized type %s." %
                             (which, self, self.base_dtype))
        return TypeError("Cannot find %s value of %s with type %s." % (which, self, self))

    @property
    def min(self):
        """The smallest representable value (TypeError for bool, complex,
        string, quantized, resource and variant, as TensorFlow)."""
        if self.is_floating and self.base_dtype._type_enum != 14:
            return np.finfo(self.as_numpy_dtype).min
        if self.is_integer:
            return np.iinfo(self.as_numpy_dtype).min
        raise self._limit_error("minimum")

    @property
    def max(self):
        """The largest representable value (TypeError as for min)."""
        if self.is_floating and self.base_dtype._type_enum != 14:
            return np.finfo(self.as_numpy_dtype).max
        if self.is_integer:
            return np.iinfo(self.as_numpy_dtype).max
        raise self._limit_error("maximum")

    @property
    def limits(self, clip_negative=True):
        """(min, max) of TensorFlow's dtype_range, min clipped to 0 (floats
        are (-1, 1) there, i.e. (0, 1))."""
        lo, hi = _RANGE[self.base_dtype._type_enum]
        return (0 if clip_negative else lo), hi

    def is_compatible_with(self, other):
        other = as_dtype(other)
        return self._type_enum in (other.as_datatype_enum, other.base_dtype.as_datatype_enum)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self._type_enum == other._type_enum
        if other is None:
            return False
        try:
            return self._type_enum == as_dtype(other)._type_enum
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._type_enum

    def __reduce__(self):
        return as_dtype, (self.name,)

    def __repr__(self):
        return "tf." + self.name

    def __str__(self):
        return "<dtype: %r>" % self.name


_INTERN = {}
for _e in list(_NAMES):
    _INTERN[_e] = DType(_e)
    _INTERN[_e + 100] = DType(_e + 100)

float16 = half = _INTERN[19]
float32 = _INTERN[1]
float64 = double = _INTERN[2]
bfloat16 = _INTERN[14]
complex64 = _INTERN[8]
complex128 = _INTERN[18]
int8 = _INTERN[6]
int16 = _INTERN[5]
int32 = _INTERN[3]
int64 = _INTERN[9]
uint8 = _INTERN[4]
uint16 = _INTERN[17]
uint32 = _INTERN[22]
uint64 = _INTERN[23]
string = _INTERN[7]
bool = _INTERN[10]  # noqa: A001 (TensorFlow's name)
qint8 = _INTERN[11]
quint8 = _INTERN[12]
qint16 = _INTERN[15]
quint16 = _INTERN[16]
qint32 = _INTERN[13]
resource = _INTERN[20]
variant = _INTERN[21]
float32_ref = _INTERN[101]
float64_ref = _INTERN[102]
int32_ref = _INTERN[103]
int64_ref = _INTERN[109]

_STRING_TO_TF = {d.name: d for d in _INTERN.values()}
_STRING_TO_TF.update({"half": float16, "float": float32, "double": float64,
                      "half_ref": _INTERN[119], "float_ref": float32_ref,
                      "double_ref": float64_ref})

_NP_TO_TF = {
    np.dtype(np.float16): float16, np.dtype(np.float32): float32, np.dtype(np.float64): float64,
    np.dtype(np.int32): int32, np.dtype(np.int64): int64, np.dtype(np.uint8): uint8,
    np.dtype(np.uint16): uint16, np.dtype(np.uint32): uint32, np.dtype(np.uint64): uint64,
    np.dtype(np.int16): int16, np.dtype(np.int8): int8, np.dtype(np.complex64): complex64,
    np.dtype(np.complex128): complex128, np.dtype(np.object_): string,
    np.dtype(np.bool_): bool, _resource_np: resource,
}
_PYTHON_TO_TF = {float: float32, builtins.bool: bool, object: string}

QUANTIZED_DTYPES = frozenset([qint8, quint8, qint16, quint16, qint32])


def as_dtype(type_value):
    """Converts `type_value` to a DType (tf.as_dtype).

    Accepts a DType, a DataType enum int, a name ("float32", "float"), a NumPy
    dtype or scalar type, or a Python type (float -> float32, bool, str/bytes
    -> string). Raises TypeError for anything else.
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, (int, np.integer)) and not isinstance(type_value, builtins.bool):
        d = _INTERN.get(int(type_value))
        if d is not None:
            return d
    if isinstance(type_value, str):
        d = _STRING_TO_TF.get(type_value)
        if d is not None:
            return d
    if isinstance(type_value, type) and type_value in _PYTHON_TO_TF:
        return _PYTHON_TO_TF[type_value]
    try:
        npd = None if type_value is None or any(type_value is t for t in (int, str, bytes)) else \
            np.dtype(type_value)
    except TypeError:
        npd = None
    if npd is not None:
        if npd.kind in "SU":
            return string
        for e in (11, 12, 13, 15, 16):
            if npd == _NUMPY[e]:
                return _INTERN[e]
        d = _NP_TO_TF.get(npd)
        if d is not None:
            return d
        if npd.name == "bfloat16":
            return bfloat16
    raise TypeError("Cannot convert the argument `type_value`: %r to a TensorFlow DType." %
                    (type_value,))


def _c_type_name(dtype):
    """TensorFlow's DataTypeString of `dtype` ("float", "double", "int32")."""
    return _C_NAMES.get(dtype.as_datatype_enum, dtype.name)


DataType = types_pb2.DataType
