"""TensorShape and Dimension, mirroring tensorflow/python/framework/tensor_shape.py.

With TensorFlow 2's default ("v2") behaviour, indexing a TensorShape gives
ints or None; `disable_v2_tensorshape()` switches to Dimension objects as in
TensorFlow 1. Unknown dimensions are None (-1 in protos and the C API).
"""
from minitf.core.framework import tensor_shape_pb2

_TENSORSHAPE_V2_OVERRIDE = None
_V2_BEHAVIOR = True


def enable_v2_tensorshape():
    """shape[i] returns an int or None (TensorFlow 2 behaviour, the default)."""
    global _V2_BEHAVIOR
    _V2_BEHAVIOR = True


def disable_v2_tensorshape():
    """shape[i] returns a Dimension (TensorFlow 1 behaviour)."""
    global _V2_BEHAVIOR
    _V2_BEHAVIOR = False


class Dimension:
    """The size of one dimension; `value` is an int or None (unknown)."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if isinstance(value, Dimension):
            value = value.value
        if value is None:
            self._value = None
        else:
            try:
                self._value = int(value.__index__())
            except AttributeError:
                raise TypeError("Dimension value must be integer or None or have an __index__ "
                                "method, got value '{0!r}' with type '{1!r}'"
                                .format(value, type(value))) from None
            if self._value < 0:
                raise ValueError("Dimension %d must be >= 0" % self._value)

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return "Dimension(%s)" % repr(self._value)

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def __eq__(self, other):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return None
        return self._value == other.value

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is None or r is NotImplemented else not r

    def __hash__(self):
        return hash(self._value)

    def __bool__(self):
        return bool(self._value)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other.value is None or self._value == other.value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError("Dimensions %s and %s are not compatible" % (self, other))

    def merge_with(self, other):
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other.value if self._value is None else self._value)

    def _binary(self, other, fn):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other.value))

    def __add__(self, other):
        return self._binary(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other):
        return self._binary(other, lambda a, b: a - b)

    def __rsub__(self, other):
        return as_dimension(other) - self

    def __mul__(self, other):
        return self._binary(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other):
        return self._binary(other, lambda a, b: a // b)

    def __truediv__(self, other):
        raise TypeError("unsupported operand type(s) for /: 'Dimension' and '{}', please use "
                        "// instead".format(type(other).__name__))

    def __mod__(self, other):
        return self._binary(other, lambda a, b: a % b)

    def __lt__(self, other):
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value < other.value

    def __le__(self, other):
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value <= other.value

    def __gt__(self, other):
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value > other.value

    def __ge__(self, other):
        other = as_dimension(other)
        return None if self._value is None or other.value is None else self._value >= other.value


def as_dimension(value):
    """`value` as a Dimension (a Dimension is returned unchanged)."""
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension):
    """The int or None inside `dimension` (an int/None passes through)."""
    return dimension.value if isinstance(dimension, Dimension) else dimension


class TensorShape:
    """The static shape of a tensor: unknown rank, or a list of dims (int or None).

    str() is "(None, 3)" ("<unknown>" for unknown rank); repr() is
    "TensorShape([None, 3])". Mirrors tf.TensorShape.
    """

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, tensor_shape_pb2.TensorShapeProto):
            self._dims = None if dims.unknown_rank else tuple(
                None if d.size == -1 else d.size for d in dims.dim)
        elif isinstance(dims, (str, bytes)):
            raise TypeError("Failed to convert '%r' to a shape: '%r'could not be converted to a "
                            "dimension. A shape should either be single dimension (e.g. 10), or "
                            "an iterable of dimensions (e.g. [1, 10, None])." % (dims, dims[:1]))
        else:
            try:
                it = iter(dims)
            except TypeError:
                it = None
            if it is None:
                self._dims = (dimension_value(as_dimension(dims)),)
            else:
                self._dims = tuple(dimension_value(as_dimension(d)) for d in it)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        if _V2_BEHAVIOR:
            return "TensorShape(%r)" % (list(self._dims),)
        return "TensorShape([%s])" % ", ".join(repr(Dimension(d)) for d in self._dims)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        dims = self._dims if _V2_BEHAVIOR else [Dimension(d) for d in self._dims]
        if len(dims) == 1:
            return "(%s,)" % dims[0]
        return "(%s)" % ", ".join(str(d) for d in dims)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims if _V2_BEHAVIOR else [Dimension(d) for d in self._dims])

    def __getitem__(self, key):
        if self._dims is not None:
            if isinstance(key, slice):
                return TensorShape(self._dims[key])
            return self._dims[key] if _V2_BEHAVIOR else Dimension(self._dims[key])
        if isinstance(key, slice):
            start, stop = key.start, key.stop
            if (start is None or start >= 0) and stop is not None and stop >= 0 and key.step is None:
                return unknown_shape(rank=stop - (start or 0))
            return unknown_shape()
        return None if _V2_BEHAVIOR else Dimension(None)

    def as_list(self):
        """The dims as a list of ints/None; ValueError for unknown rank."""
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def as_proto(self):
        """A TensorShapeProto (unknown dims as -1)."""
        if self._dims is None:
            return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
        return tensor_shape_pb2.TensorShapeProto(dim=[
            tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d is None else d) for d in self._dims])

    def _as_c_dims(self):
        """None (unknown rank) or a list with -1 for unknown dims, for the C API."""
        return None if self._dims is None else [-1 if d is None else d for d in self._dims]

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError("Shape %s is not fully defined" % self)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are incompatible" % (self, other))

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError("Shapes %s and %s are not compatible" % (self, other))
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return unknown_shape()
        return TensorShape(self._dims + other._dims)

    def with_rank(self, rank):
        try:
            return self.merge_with(unknown_shape(rank=rank))
        except ValueError:
            raise ValueError("Shape %s must have rank %d" % (self, rank)) from None

    def with_rank_at_least(self, rank):
        """self, or ValueError "Shape %s must have rank at least %d"."""
        if self.rank is not None and self.rank < rank:
            raise ValueError("Shape %s must have rank at least %d" % (self, rank))
        return self

    def with_rank_at_most(self, rank):
        """self, or ValueError "Shape %s must have rank at most %d"."""
        if self.rank is not None and self.rank > rank:
            raise ValueError("Shape %s must have rank at most %d" % (self, rank))
        return self

    def assert_has_rank(self, rank):
        if self.rank not in (None, rank):
            raise ValueError("Shape %s must have rank %d" % (self, rank))

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError("Shapes %s and %s must have the same rank" % (self, other))

    def most_specific_compatible_shape(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return unknown_shape()
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        return hash(self._dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __reduce__(self):
        return TensorShape, (None if self._dims is None else list(self._dims),)


def as_shape(shape):
    """`shape` as a TensorShape (None = unknown rank)."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None, **kwargs):
    """A shape of unknown rank, or of `rank` unknown dims."""
    if rank is None and "ndims" in kwargs:
        rank = kwargs.pop("ndims")
    return TensorShape(None if rank is None else [None] * rank)


def scalar():
    return TensorShape([])


def vector(length):
    return TensorShape([length])


def matrix(rows, cols):
    return TensorShape([rows, cols])
