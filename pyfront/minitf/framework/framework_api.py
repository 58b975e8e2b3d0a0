"""Framework names of tf.compat.v1 that are plain Python over minitf's graph objects, as
TensorFlow 2.21 defines them: is_tensor, is_symbolic_tensor, dimension_value,
dimension_at_index, broadcast_static_shape, all_variables,
executing_eagerly_outside_functions, op_scope, variable_op_scope, and the GraphDef version
constants and QUANTIZED_DTYPES."""
import contextlib

from minitf.framework import dtypes, ops, tensor_shape
from minitf.framework.tensor_shape import dimension_value  # noqa: F401

# The GraphDef versions minitf writes and reads: TF 2.21's producer (VersionDef.producer
# of every exported graph) and its minimum consumer/producer.
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

QUANTIZED_DTYPES = frozenset([dtypes.qint8, dtypes.quint8, dtypes.qint16, dtypes.quint16,
                              dtypes.qint32] + [d._as_ref for d in (
                                  dtypes.qint8, dtypes.quint8, dtypes.qint16, dtypes.quint16,
                                  dtypes.qint32)])


def _tensor_like_types():
    from minitf.framework.indexed_slices import IndexedSlices
    from minitf.framework.sparse_tensor import SparseTensor
    from minitf.ops.variables import Variable
    return (ops.Tensor, Variable, SparseTensor, IndexedSlices)


def is_tensor(x):
    """True for a graph Tensor, a Variable (resource or ref), a SparseTensor or an
    IndexedSlices; False for numpy values, Python values, Operations and TensorShapes
    (tf.is_tensor)."""
    return isinstance(x, _tensor_like_types())


def is_symbolic_tensor(tensor):
    """True only for a graph Tensor (tf.is_symbolic_tensor: not Variables, SparseTensors,
    IndexedSlices or values)."""
    from minitf.ops.variables import Variable
    return isinstance(tensor, ops.Tensor) and not isinstance(tensor, Variable)


def dimension_at_index(shape, index):
    """shape.dims[index] as a Dimension; Dimension(None) when the rank is unknown
    (tf.compat.dimension_at_index). `shape` must be a TensorShape (AssertionError)."""
    assert isinstance(shape, tensor_shape.TensorShape)
    if shape.rank is None:
        return tensor_shape.Dimension(None)
    return shape.dims[index]


def broadcast_static_shape(shape_x, shape_y):
    """The NumPy broadcast of two TensorShapes (tf.broadcast_static_shape): unknown when
    either rank is; an unknown dim against 1 or itself stays unknown. ValueError
    ("Incompatible shapes for broadcasting. ...") when two known dims differ and neither
    is 1."""
    if shape_x.ndims is None or shape_y.ndims is None:
        return tensor_shape.unknown_shape()
    xs = [tensor_shape.dimension_value(d) for d in shape_x.dims]
    ys = [tensor_shape.dimension_value(d) for d in shape_y.dims]
    n = max(len(xs), len(ys))
    xs = [1] * (n - len(xs)) + xs
    ys = [1] * (n - len(ys)) + ys
    out = []
    for x, y in zip(xs, ys):
        if x is None or y is None:
            # TF's _broadcast_shape_helper: None against a known dim d > 1 is d
            known = x if y is None else y
            out.append(known if known is not None and known > 1 else None)
        elif x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise ValueError(
                "Incompatible shapes for broadcasting. Two shapes are compatible if for each "
                "dimension pair they are either equal or one of them is 1. Received: %s and %s."
                % (shape_x, shape_y))
    return tensor_shape.TensorShape(out)


def all_variables():
    """tf.compat.v1.all_variables: the deprecated name of global_variables()."""
    from minitf.ops import variables
    return variables.global_variables()


def executing_eagerly_outside_functions():
    """False: minitf always builds graphs (tf.compat.v1.executing_eagerly_outside_functions)."""
    return False


@contextlib.contextmanager
def op_scope(values, name, default_name=None):
    """tf.compat.v1.op_scope (deprecated): name_scope(name, default_name, values)."""
    with ops.name_scope(name, default_name=default_name, values=values) as scope:
        yield scope


@contextlib.contextmanager
def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
    """tf.compat.v1.variable_op_scope (deprecated): variable_scope with `values` first."""
    from minitf.ops.variable_scope import variable_scope
    with variable_scope(name_or_scope, default_name=default_name, values=values,
                        initializer=initializer, regularizer=regularizer,
                        caching_device=caching_device, partitioner=partitioner,
                        custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                        use_resource=use_resource, constraint=constraint) as scope:
        yield scope


def is_variable_initialized(variable):
    """bool scalar Tensor: whether `variable` holds a value (tf.compat.v1.is_variable_initialized;
    op IsVariableInitialized for a ref variable, VarIsInitializedOp for a resource one)."""
    from minitf.ops import state_ops
    return state_ops.is_variable_initialized(variable)


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    """`value` as a Tensor (tf.compat.v1.convert_to_tensor): Tensors pass through
    (ValueError when `dtype` differs), registered types (Variables, SparseTensorValue, ...)
    convert, anything else becomes a Const; `preferred_dtype`/`dtype_hint` is tried first
    and dropped when the value does not fit it. The public form of ops.convert_to_tensor,
    without its internal `as_ref`."""
    return ops.convert_to_tensor(value, dtype=dtype, name=name, preferred_dtype=preferred_dtype,
                                 dtype_hint=dtype_hint)
