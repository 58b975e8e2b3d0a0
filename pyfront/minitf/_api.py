"""The public TF1 API, shared by `minitf` and `minitf.compat.v1`."""
from minitf import errors, image, linalg, math, nn, random, raw_ops, summary  # noqa: F401
from minitf.client.session import InteractiveSession, Session  # noqa: F401
from minitf.core.framework.attr_value_pb2 import AttrValue, NameAttrList  # noqa: F401
from minitf.core.framework.graph_pb2 import GraphDef  # noqa: F401
from minitf.core.framework.node_def_pb2 import NodeDef  # noqa: F401
from minitf.core.framework.op_def_pb2 import OpDef, OpList  # noqa: F401
from minitf.core.framework.tensor_pb2 import TensorProto  # noqa: F401
from minitf.core.framework.tensor_shape_pb2 import TensorShapeProto  # noqa: F401
from minitf.core.framework.versions_pb2 import VersionDef  # noqa: F401
from minitf.core.protobuf.config_pb2 import ConfigProto, RunMetadata, RunOptions  # noqa: F401
from minitf.framework import dtypes  # noqa: F401
from minitf.framework.constant_op import constant  # noqa: F401
from minitf.framework.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, qint8, qint16, qint32, quint8, quint16, resource, string,
    uint8, uint16, uint32, uint64, variant)
from minitf.framework.importer import import_graph_def  # noqa: F401
from minitf.framework.random_seed import get_seed, set_random_seed  # noqa: F401
from minitf.framework.device import DeviceSpecV1 as DeviceSpec  # noqa: F401
from minitf.framework.ops import (  # noqa: F401
    Graph, GraphKeys, Operation, Tensor, add_to_collection, add_to_collections, colocate_with,
    container, control_dependencies, convert_to_tensor, device, get_all_collection_keys,
    get_collection, get_collection_ref, get_default_graph, get_default_session, name_scope,
    reset_default_graph)
from minitf.framework.tensor_shape import (  # noqa: F401
    Dimension, TensorShape, disable_v2_tensorshape, enable_v2_tensorshape)
from minitf.framework.tensor_util import MakeNdarray as make_ndarray  # noqa: F401
from minitf.framework.tensor_util import make_tensor_proto  # noqa: F401
from minitf.ops.array_ops import (  # noqa: F401
    identity, newaxis, placeholder, placeholder_with_default, reshape, stack, strided_slice)
from minitf.ops.control_flow_ops import cond, group, no_op, switch_case, while_loop  # noqa: F401
from minitf.ops.control_flow_util import (  # noqa: F401
    control_flow_v2_enabled, disable_control_flow_v2, enable_control_flow_v2)
from minitf.util import nest  # noqa: F401
from minitf.ops.math_ops import (  # noqa: F401
    abs, add, argmax, cast, div, divide, floordiv, floormod, greater, greater_equal, less,
    less_equal, logical_and, logical_not, logical_or, logical_xor, matmul, mod, multiply, negative,
    pow, realdiv, reduce_mean, reduce_sum, subtract, truediv)
from minitf.ops.variables import (  # noqa: F401
    Variable, global_variables, global_variables_initializer, local_variables,
    local_variables_initializer, trainable_variables, variables_initializer)

# Sections per op family / area: each adds its exports in its own section only.

# --- elementwise (math_ops / unary) ---
from minitf import bitwise  # noqa: F401,E402
from minitf.ops.math_ops import (  # noqa: F401,E402
    abs, add_n, atan2, ceil, clip_by_value, cos, div_no_nan, equal, erf, exp, expm1, floor,
    floor_div, floordiv, floormod, greater, greater_equal, is_finite, is_inf, is_nan, less,
    less_equal, log, log1p, logical_and, logical_not, logical_or, logical_xor, maximum, minimum,
    mod, not_equal, pow, reciprocal, rint, round, rsqrt, sigmoid, sign, sin, sqrt, square,
    squared_difference, tan, tanh, to_bfloat16, to_complex64, to_complex128, to_double, to_float,
    to_int32, to_int64, truncatediv, where, where_v2)

# --- reductions and linalg ---
from minitf.ops.linalg_ops import einsum, matmul  # noqa: F401,E402
from minitf.ops.reduction_ops import (  # noqa: F401,E402
    argmax, argmin, cumprod, cumsum, reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_sum)

# --- linalg ---
from minitf.ops.linalg_ops import (  # noqa: F401,E402
    cholesky, cholesky_solve, cross, diag, diag_part, eye, matrix_band_part,
    matrix_determinant, matrix_diag, matrix_diag_part, matrix_inverse, matrix_set_diag,
    matrix_solve, matrix_solve_ls, matrix_transpose, matrix_triangular_solve, norm, qr,
    self_adjoint_eig, self_adjoint_eigvals, svd, tensordot, trace)

# --- nn / conv / pooling / image ---

# --- array / shape ---
from minitf.ops.array_ops import (  # noqa: F401,E402
    bitcast, broadcast_dynamic_shape, broadcast_to, check_numerics, concat, dynamic_stitch,
    expand_dims,
    fill, identity_n, ones, ones_like, range, rank, reverse, reverse_v2, shape, shape_n, size,
    split, squeeze, stack, stop_gradient, tile, transpose, unique, unstack, zeros, zeros_like)
from minitf import debugging  # noqa: F401,E402

# --- indexing / slicing / space ---
from minitf.ops.indexing_ops import (  # noqa: F401,E402
    batch_to_space_nd, depth_to_space, gather, gather_nd, one_hot, pad, scatter_nd, slice,
    space_to_batch_nd, space_to_depth, where)

# --- segment reductions ---
from minitf.ops.math_ops import unsorted_segment_sum  # noqa: F401,E402

# --- random ---
from minitf.ops.random_ops import multinomial, random_normal, random_shuffle  # noqa: F401,E402
from minitf.ops.random_ops import random_uniform, truncated_normal  # noqa: F401,E402

# --- graph API (Graph, Operation, Tensor contexts, sessions, errors) ---
from minitf import sparse  # noqa: F401,E402
from minitf.framework.sparse_tensor import (  # noqa: F401,E402
    SparseTensor, SparseTensorValue, convert_to_tensor_or_sparse_tensor)
from minitf.ops.sparse_ops import (  # noqa: F401,E402
    sparse_add, sparse_placeholder, sparse_reorder, sparse_tensor_dense_matmul,
    sparse_tensor_to_dense)
from minitf import test, train  # noqa: F401,E402
from minitf import initializers  # noqa: F401,E402
from minitf.ops.init_ops import (  # noqa: F401,E402
    constant_initializer, glorot_normal_initializer, glorot_uniform_initializer,
    ones_initializer, random_normal_initializer, random_uniform_initializer,
    truncated_normal_initializer, uniform_unit_scaling_initializer,
    variance_scaling_initializer, zeros_initializer)
from minitf.ops.init_ops import orthogonal_initializer  # noqa: F401,E402
from minitf.ops.variable_scope import (  # noqa: F401,E402
    AUTO_REUSE, VariableScope, get_local_variable, get_variable, get_variable_scope,
    no_regularizer, variable_scope)

# --- variables and state ops ---
from minitf import graph_util  # noqa: F401,E402
from minitf.ops.state_ops import (  # noqa: F401,E402
    assign, assign_add, assign_sub, count_up_to, is_variable_initialized, scatter_add,
    scatter_div, scatter_max, scatter_min, scatter_mul, scatter_nd_add, scatter_nd_sub,
    scatter_nd_update, scatter_sub, scatter_update)
from minitf.ops.variables import (  # noqa: F401,E402
    assert_variables_initialized, initialize_all_variables,
    initialize_local_variables, initialize_variables, model_variables,
    moving_average_variables, report_uninitialized_variables)

# --- boundaries (TensorProto, DLPack, summaries) ---

# --- logging, assertions, py_func ---
from minitf import strings  # noqa: F401,E402
from minitf.ops.partitioned_variables import (  # noqa: F401,E402
    fixed_size_partitioner, min_max_variable_partitioner, variable_axis_size_partitioner)
from minitf.ops.string_ops import regex_replace, string_join  # noqa: F401,E402
from minitf.platform import app, flags  # noqa: F401,E402
from minitf import lookup  # noqa: F401,E402
from minitf.ops.lookup_ops import initialize_all_tables  # noqa: F401,E402
from minitf.ops.string_ops import (  # noqa: F401,E402
    as_string, fingerprint, reduce_join, string_split, string_strip, string_to_hash_bucket,
    string_to_hash_bucket_fast, string_to_hash_bucket_strong, string_to_number, substr)
from minitf.ops.array_ops import dynamic_partition  # noqa: F401,E402
from minitf.ops.check_ops import (  # noqa: F401,E402
    assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less,
    assert_less_equal, assert_near, assert_negative, assert_non_negative, assert_non_positive,
    assert_none_equal, assert_positive, assert_proper_iterable, assert_rank,
    assert_rank_at_least, assert_rank_in, assert_same_float_dtype, assert_scalar, assert_type,
    is_non_decreasing, is_numeric_tensor, is_strictly_increasing)
from minitf.ops.numerics import (  # noqa: F401,E402
    add_check_numerics_ops, verify_tensor_all_finite)
from minitf.ops.logging_ops import Assert, Print, timestamp  # noqa: F401,E402
from minitf.ops.logging_ops import print_v2 as print  # noqa: F401,E402,A004
from minitf.ops.script_ops import numpy_function, py_func, py_function  # noqa: F401,E402

# --- gradients ---
from minitf.framework.indexed_slices import IndexedSlices, IndexedSlicesValue  # noqa: F401,E402
from minitf.framework.indexed_slices import (  # noqa: F401,E402
    convert_to_tensor_or_indexed_slices)
from minitf.ops.control_flow_ops import tuple_ as tuple  # noqa: F401,E402,A004
from minitf.ops.gradients_impl import (  # noqa: F401,E402
    AggregationMethod, NoGradient, NotDifferentiable, RegisterGradient, UnconnectedGradients,
    custom_gradient, gradients, hessians, no_gradient)
from minitf.ops.clip_ops import (  # noqa: F401,E402
    clip_by_average_norm, clip_by_global_norm, clip_by_norm, global_norm)

__version__ = "2.21.0-minitf"


def disable_eager_execution():
    """No-op: minitf always builds graphs (kept so TF1 scripts run unchanged)."""


def disable_v2_behavior():
    """Switches TensorShape indexing to Dimension objects (TF1); graphs are always used."""
    disable_v2_tensorshape()


def enable_eager_execution(*args, **kwargs):
    raise NotImplementedError("minitf has no eager mode")


def executing_eagerly():
    return False

# --- control flow containers (TensorArray) ---
from minitf.ops.control_flow_util import (  # noqa: F401,E402
    control_flow_v2_enabled, disable_control_flow_v2, enable_control_flow_v2)
from minitf.ops.tensor_array_ops import TensorArray  # noqa: F401,E402

# --- functional ops (map_fn, scan, folds, case) ---
from minitf.ops.control_flow_ops import case  # noqa: F401,E402
from minitf.ops.functional_ops import foldl, foldr, scan  # noqa: F401,E402
from minitf.ops.map_fn import map_fn  # noqa: F401,E402
from minitf.ops.array_ops import reverse_sequence  # noqa: F401,E402

# --- tf.logging (the "tensorflow" logger) ---
from minitf.platform import tf_logging as logging  # noqa: F401,E402
from minitf.platform.tf_logging import get_logger  # noqa: F401,E402
from minitf import saved_model  # noqa: F401,E402

# --- layers, losses (tf.layers, tf.losses), make_template ---
from minitf import layers, losses  # noqa: F401,E402
from minitf.ops.template import make_template, tables_initializer  # noqa: F401,E402

# --- metrics ---
from minitf import metrics, sets  # noqa: F401,E402
from minitf.ops.confusion_matrix import confusion_matrix_v1 as confusion_matrix  # noqa: F401,E402

# --- array (boolean_mask, tensor_scatter_*, ...) ---
from minitf.ops.array_ext_ops import (  # noqa: F401,E402
    batch_gather, batch_scatter_update, batch_to_space, boolean_mask, ensure_shape,
    guarantee_const, invert_permutation, meshgrid, parallel_stack, repeat,
    required_space_to_batch_paddings, roll, sequence_mask, setdiff1d, space_to_batch,
    tensor_scatter_add, tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min,
    tensor_scatter_nd_sub, tensor_scatter_nd_update, tensor_scatter_sub, tensor_scatter_update,
    unique_with_counts, unravel_index)
from minitf.framework.framework_api import (  # noqa: F401,E402
    GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER, GRAPH_DEF_VERSION_MIN_PRODUCER,
    QUANTIZED_DTYPES, all_variables, broadcast_static_shape, convert_to_tensor,
    dimension_at_index,
    dimension_value, executing_eagerly_outside_functions, is_symbolic_tensor, is_tensor,
    is_variable_initialized, op_scope, variable_op_scope)
from minitf.framework.ops import register_tensor_conversion_function  # noqa: F401,E402

# --- math (special functions, trig/hyperbolic, composite math) ---
from minitf.ops.special_math_ops import (  # noqa: F401,E402
    accumulate_n, acos, acosh, angle, arg_max, arg_min, asin, asinh, atan, atanh, betainc,
    complex, conj, count_nonzero, cosh, digamma, erfc, igamma, igammac, imag, lbeta, lgamma,
    log_sigmoid, polygamma, real, reduce_logsumexp, scalar_mul, sinh, truncatemod, zeta)

# --- math: segment reductions (segment_ops.py) ---
from minitf.ops.segment_ops import (  # noqa: F401,E402
    segment_max, segment_mean, segment_min, segment_prod, segment_sum, unsorted_segment_max,
    unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n)

# --- math: sorting, searching, histograms, linspace ---
from minitf.ops.histogram_ops import (  # noqa: F401,E402
    histogram_fixed_width, histogram_fixed_width_bins)
from minitf.ops.sort_ops import argsort, searchsorted, sort  # noqa: F401,E402
from minitf.ops.special_math_ops import lin_space, linspace  # noqa: F401,E402
from minitf.ops.histogram_ops import bincount  # noqa: F401,E402

# --- math: Fourier transforms (spectral_ops.py) ---
from minitf import signal, spectral  # noqa: F401,E402
from minitf.ops.spectral_ops import (  # noqa: F401,E402
    fft, fft2d, fft3d, ifft, ifft2d, ifft3d)

# --- randsparse (tf.random / tf.sparse top-level names) ---
from minitf.ops.random_crop_ops import random_crop  # noqa: F401,E402
from minitf.ops.sparse_ops import (  # noqa: F401,E402
    sparse_concat, sparse_fill_empty_rows, sparse_mask, sparse_merge, sparse_reduce_max,
    sparse_reduce_max_sparse,
    sparse_reduce_sum, sparse_reduce_sum_sparse, sparse_reset_shape, sparse_reshape,
    sparse_retain, sparse_slice, sparse_split, sparse_to_dense, sparse_to_indicator,
    sparse_transpose)
from minitf.ops.sparse_ops import (  # noqa: F401,E402
    deserialize_many_sparse, serialize_many_sparse, serialize_sparse)

# --- records (tf.io byte decoders and file ops, tf.gfile) ---
from minitf import gfile, io  # noqa: F401,E402
from minitf.ops.parsing_ops import (  # noqa: F401,E402
    decode_base64, decode_raw, encode_base64, matching_files, parse_tensor, read_file,
    serialize_tensor, write_file)

# --- protocol buffer messages at the top level (tf.GPUOptions, tf.Summary, ...) ---
from minitf.core.framework.summary_pb2 import (  # noqa: F401,E402
    HistogramProto, Summary, SummaryMetadata)
from minitf.core.protobuf.config_pb2 import (  # noqa: F401,E402
    GPUOptions, GraphOptions, OptimizerOptions)
from minitf.core.protobuf.meta_graph_pb2 import MetaGraphDef, TensorInfo  # noqa: F401,E402
from minitf.core.util.event_pb2 import Event, LogMessage, SessionLog  # noqa: F401,E402
from minitf.errors import OpError  # noqa: F401,E402
from minitf.framework.ops import init_scope  # noqa: F401,E402

# --- queues and readers (tf.FIFOQueue ..., tf.TextLineReader ...; tf.queue) ---
from minitf import queue  # noqa: F401,E402
from minitf.ops.data_flow_ops import (  # noqa: F401,E402
    FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue)
from minitf.ops.io_ops import (  # noqa: F401,E402
    FixedLengthRecordReader, IdentityReader, ReaderBase, TextLineReader, WholeFileReader)

# --- records (tf.python_io: TFRecord writer and iterator) ---
from minitf import python_io  # noqa: F401,E402
