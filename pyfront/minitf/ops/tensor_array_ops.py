"""tf.TensorArray (TensorFlow 2.21's tensor_array_ops.py, graph mode).

Two implementations, picked as TensorFlow picks them: under control flow v2 (the default; see
minitf.ops.control_flow_util) or for a variant `flow`, the array is a TensorList carried in
`flow` and `handle` is None (_GraphTensorArrayV2: TensorListReserve named "TensorArrayV2",
TensorListGetItem / SetItem / Stack ... under "TensorArrayV2Read", "TensorArrayV2Write", ...).
Under v1 it is a TensorArrayV3 resource (named "TensorArray") with a float flow
(_GraphTensorArray: TensorArrayReadV3, "TensorArrayWrite/TensorArrayWriteV3", ...), whose
gradients go through TensorArrayGradV3 arrays keyed by the gradient's name prefix.

Errors: ValueError for inconsistent element shapes at graph construction ("Inconsistent shapes:
saw ... but expected ..."); at run time InvalidArgumentError naming the node, in TensorFlow's
words (writing an index twice, reading a cleared index, out-of-range reads and writes).
"""
import contextlib
import weakref

from minitf.framework import dtypes, ops, tensor_shape, tensor_util
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import array_ops, control_flow_util, list_ops, math_ops


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _constant_value(x):
    """tensor_util.constant_value that passes Python values through, as TensorFlow's."""
    return tensor_util.constant_value(x) if isinstance(x, ops.Tensor) else x


class _GraphTensorArray:
    """The v1 TensorArray: a TensorArrayV3 resource plus a float flow."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if handle is not None and tensor_array_name:
            raise ValueError("Cannot provide both `handle` and `tensor_array_name` arguments "
                             "at the same time.")
        if handle is not None and not isinstance(handle, ops.Tensor):
            raise TypeError("Expected `handle` to be a Tensor, but got `%s` of type `%s` "
                            "instead." % (handle, type(handle)))
        if handle is None and size is None:
            raise ValueError("Argument `size` must be provided if handle is not provided.")
        if handle is not None and size is not None:
            raise ValueError("Cannot provide both a `handle` and `size` arguments at the same "
                             "time.")
        if handle is not None and element_shape is not None:
            raise ValueError("Cannot provide both `handle` and `element_shape` arguments at "
                             "the same time.")
        if handle is not None and dynamic_size is not None:
            raise ValueError("Cannot provide both `handle` and `dynamic_size` arguments at "
                             "the same time.")
        if handle is not None and clear_after_read is not None:
            raise ValueError("Cannot provide both `handle` and `clear_after_read` arguments "
                             "at the same time.")
        if clear_after_read is None:
            clear_after_read = True
        self._dynamic_size = dynamic_size or False
        self._dtype = dtypes.as_dtype(dtype).base_dtype
        self._colocate_with_first_write_call = colocate_with_first_write_call
        self._colocate_with = [] if colocate_with_first_write_call else None
        self._element_shape = [tensor_shape.as_shape(element_shape)]
        self._infer_shape = infer_shape
        self._size = size
        with ops.name_scope(name, "TensorArray", [handle, size, flow]) as scope:
            if handle is not None:
                if flow is None:
                    raise ValueError("flow must not be None if handle is not None.")
                self._handle, self._flow = handle, flow
                return

            def create():
                return _op("TensorArrayV3", name=scope, dtype=self._dtype, size=size,
                           element_shape=element_shape, identical_element_shapes=infer_shape,
                           dynamic_size=self._dynamic_size, clear_after_read=clear_after_read,
                           tensor_array_name=tensor_array_name)
            if colocate_with_first_write_call:
                with ops.device(None), ops.colocate_with(None, ignore_existing=True):
                    self._handle, self._flow = create()
            else:
                self._handle, self._flow = create()

    flow = property(lambda self: self._flow)
    dtype = property(lambda self: self._dtype)
    handle = property(lambda self: self._handle)
    element_shape = property(lambda self: self._element_shape[0])

    def _check_element_shape(self, shape):
        if not shape.is_compatible_with(self.element_shape):
            raise ValueError("Inconsistent shapes: saw %s but expected %s " %
                             (shape, self.element_shape))
        if self._infer_shape:
            self._element_shape[0] = self.element_shape.merge_with(shape)

    @contextlib.contextmanager
    def _maybe_colocate_with(self, value):
        if not self._colocate_with_first_write_call:
            yield
            return
        if not self._colocate_with:
            self._colocate_with.append(value)
        with ops.colocate_with(self._colocate_with[0]):
            yield

    def identity(self):
        return build_ta_with_new_flow(self, array_ops.identity(self._flow))

    def grad(self, source, flow=None, name=None):
        if flow is None:
            flow = self.flow
        with ops.name_scope(name, "TensorArrayGrad", [self._handle]):
            with ops.colocate_with(self._handle):
                g_handle, _ = _op("TensorArrayGradV3", name=name, handle=self._handle,
                                  source=source, flow_in=flow)
                with ops.control_dependencies([g_handle]):
                    flow = array_ops.identity(flow, name="gradient_flow")
                g = TensorArray(dtype=self._dtype, handle=g_handle, flow=flow,
                                infer_shape=self._infer_shape,
                                colocate_with_first_write_call=False)
                g._implementation._element_shape = self._element_shape
                return g

    def read(self, index, name=None):
        value = _op("TensorArrayReadV3", name=name, handle=self._handle, index=index,
                    flow_in=self._flow, dtype=self._dtype)
        if self._element_shape:
            value.set_shape(self._element_shape[0].dims)
        return value

    def write(self, index, value, name=None):
        with ops.name_scope(name, "TensorArrayWrite", [self._handle, index, value]):
            value = ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape)
            with self._maybe_colocate_with(value):
                flow_out = _op("TensorArrayWriteV3", name=name, handle=self._handle,
                               index=index, value=value, flow_in=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def stack(self, name=None):
        with ops.colocate_with(self._handle):
            with ops.name_scope(name, "TensorArrayStack", [self._handle]):
                value = self.gather(array_ops.range(0, self.size()), name=name)
                if self.element_shape and not self._dynamic_size and self._size is not None:
                    value.set_shape([_constant_value(self._size)] +
                                    self.element_shape.dims)
                return value

    def gather(self, indices, name=None):
        element_shape = self._element_shape[0] if self._element_shape else \
            tensor_shape.unknown_shape()
        value = _op("TensorArrayGatherV3", name=name, handle=self._handle, indices=indices,
                    flow_in=self._flow, dtype=self._dtype, element_shape=element_shape)
        if self.element_shape:
            value.set_shape([None] + self.element_shape.dims)
        return value

    def concat(self, name=None):
        value, _ = _op("TensorArrayConcatV3", name=name, handle=self._handle,
                       flow_in=self._flow, dtype=self._dtype,
                       element_shape_except0=self.element_shape[1:])
        if self.element_shape:
            dim0 = None
            if self._infer_shape:
                size = tensor_util.constant_value(self.size())
                if size is not None and self.element_shape[0] is not None:
                    dim0 = size * self.element_shape[0]
            value.set_shape([dim0] + self.element_shape.dims[1:])
        return value

    def unstack(self, value, name=None):
        with ops.name_scope(name, "TensorArrayUnstack", [self._handle, value]):
            num_elements = array_ops.shape(value)[0]
            return self.scatter(indices=array_ops.range(0, num_elements), value=value,
                                name=name)

    def scatter(self, indices, value, name=None):
        with ops.name_scope(name, "TensorArrayScatter", [self._handle, value, indices]):
            value = ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape[1:])
            with self._maybe_colocate_with(value):
                flow_out = _op("TensorArrayScatterV3", name=name, handle=self._handle,
                               indices=indices, value=value, flow_in=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def split(self, value, lengths, name=None):
        with ops.name_scope(name, "TensorArraySplit", [self._handle, value, lengths]):
            value = ops.convert_to_tensor(value, dtype=self._dtype, name="value")
            with self._maybe_colocate_with(value):
                lengths_64 = math_ops.cast(lengths, dtypes.int64)
                _check_split_shape(self, value, lengths_64)
                flow_out = _op("TensorArraySplitV3", name=name, handle=self._handle,
                               value=value, lengths=lengths_64, flow_in=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def size(self, name=None):
        if not self._dynamic_size and self._size is not None:
            return ops.convert_to_tensor(self._size, dtype=dtypes.int32)
        return _op("TensorArraySizeV3", name=name, handle=self._handle, flow_in=self.flow)

    def close(self, name=None):
        return apply_op("TensorArrayCloseV3", name=name, handle=self._handle)


def _check_split_shape(impl, value, lengths_64):
    """Equal constant lengths fix the element shape (as TensorFlow's split)."""
    clengths = tensor_util.constant_value(lengths_64)
    if value.shape.dims is not None and clengths is not None and clengths.shape and \
            clengths.max() == clengths.min():
        impl._check_element_shape(
            tensor_shape.TensorShape([clengths[0]]).concatenate(value.shape[1:]))


class _GraphTensorArrayV2:
    """The v2 TensorArray: a TensorList in `flow`; `handle` is None."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        assert handle is None
        self._dynamic_size = dynamic_size
        self._size = size
        if flow is not None and (not isinstance(flow, ops.Tensor) or
                                 flow.dtype != dtypes.variant):
            raise TypeError("Expected `flow` to be a variant tensor, but received `%s` "
                            "instead." % flow.dtype)
        if flow is None and size is None:
            raise ValueError("Argument `size` must be provided if argument `flow` is not "
                             "provided.")
        if flow is not None and size is not None:
            raise ValueError("Cannot provide both `flow` and `size` arguments at the same "
                             "time.")
        if flow is not None and element_shape is not None:
            raise ValueError("Cannot provide both `flow` and `element_shape` argumentsat the "
                             "same time.")
        self._dtype = dtypes.as_dtype(dtype).base_dtype
        self._element_shape = [tensor_shape.as_shape(element_shape)]
        self._infer_shape = infer_shape
        with ops.name_scope(name, "TensorArrayV2", [size, flow]) as scope:
            if flow is None:
                self._flow = list_ops.tensor_list_reserve(
                    element_shape=element_shape, num_elements=size, element_dtype=dtype,
                    name=scope)
            else:
                self._flow = flow
        self._colocate_with_first_write_call = None
        self._colocate_with = None

    flow = property(lambda self: self._flow)
    dtype = property(lambda self: self._dtype)
    element_shape = property(lambda self: self._element_shape[0])
    handle = property(lambda self: None)
    _check_element_shape = _GraphTensorArray._check_element_shape

    def identity(self):
        return build_ta_with_new_flow(self, array_ops.identity(self._flow))

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError()

    def read(self, index, name=None):
        with ops.name_scope(name, "TensorArrayV2Read", [self._flow, index]):
            return list_ops.tensor_list_get_item(
                input_handle=self._flow, index=index, element_dtype=self._dtype,
                element_shape=self.element_shape, name=name)

    def write(self, index, value, name=None):
        with ops.name_scope(name, "TensorArrayV2Write", [self._flow, index, value]):
            value = ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape)
            flow_out = list_ops.tensor_list_set_item(
                input_handle=self._flow, index=index, item=value,
                resize_if_index_out_of_bounds=bool(self._dynamic_size), name=name)
            return build_ta_with_new_flow(self, flow_out)

    def stack(self, name=None):
        with ops.name_scope(name, "TensorArrayV2Stack", [self._flow]):
            if not self._dynamic_size and self._size is not None:
                ta_size = _constant_value(self._size)
                ta_size = -1 if ta_size is None else int(ta_size)
            else:
                ta_size = -1
            return list_ops.tensor_list_stack(
                input_handle=self._flow, element_dtype=self._dtype, num_elements=ta_size,
                element_shape=self.element_shape)

    def gather(self, indices, name=None):
        return list_ops.tensor_list_gather(
            input_handle=self._flow, indices=indices, element_dtype=self._dtype,
            element_shape=self.element_shape, name=name)

    def concat(self, name=None):
        element_shape = [None] + self.element_shape.dims[1:] if self.element_shape else None
        return list_ops.tensor_list_concat(input_handle=self._flow, element_dtype=self._dtype,
                                           element_shape=element_shape, name=name)

    def unstack(self, value, name=None):
        with ops.name_scope(name, "TensorArrayUnstack", [self._flow, value]):
            value = ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape[1:])
            flow_out = list_ops.tensor_list_from_tensor(tensor=value,
                                                        element_shape=value.shape[1:])
            return build_ta_with_new_flow(self, flow_out)

    def scatter(self, indices, value, name=None):
        with ops.name_scope(name, "TensorArrayScatter", [self._flow, value, indices]):
            value = ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape[1:])
            flow_out = list_ops.tensor_list_scatter(tensor=value, indices=indices,
                                                    element_shape=self.element_shape,
                                                    input_handle=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def split(self, value, lengths, name=None):
        with ops.name_scope(name, "TensorArraySplit", [self._flow, value, lengths]):
            value = ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            lengths_64 = math_ops.cast(lengths, dtypes.int64)
            _check_split_shape(self, value, lengths_64)
            flow_out = list_ops.tensor_list_split(tensor=value, lengths=lengths_64,
                                                  element_shape=self.element_shape, name=name)
            return build_ta_with_new_flow(self, flow_out)

    def size(self, name=None):
        if not self._dynamic_size and self._size is not None:
            return ops.convert_to_tensor(self._size, dtype=dtypes.int32)
        return list_ops.tensor_list_length(input_handle=self._flow, name=name)

    def close(self, name=None):
        from minitf.ops.control_flow_ops import no_op
        return no_op(name=name)


class TensorArray:
    """Class wrapping dynamic-sized, per-time-step, write-once Tensor arrays
    (tf.TensorArray / tf.compat.v1.TensorArray).

    Args: dtype; size (int32 scalar, required unless handle/flow is given); dynamic_size (writes
    may grow the array); clear_after_read (v1: a read frees the element, reading it again is an
    error; default True); tensor_array_name; handle, flow (wrap an existing array); infer_shape
    (all elements share one shape, learnt from writes; default True); element_shape;
    colocate_with_first_write_call; name.
    Methods mirror TensorFlow's: read, write, stack, unstack, gather, scatter, split, concat,
    size, close, grad (v1 only), identity; properties handle, flow, dtype, element_shape,
    dynamic_size. Writes return a new TensorArray whose flow orders it after the write.
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if (flow is not None and flow.dtype == dtypes.variant) or \
                control_flow_util.EnableControlFlowV2(ops.get_default_graph()):
            implementation = _GraphTensorArrayV2
        else:
            implementation = _GraphTensorArray
        self._implementation = implementation(
            dtype, size=size, dynamic_size=dynamic_size, clear_after_read=clear_after_read,
            tensor_array_name=tensor_array_name, handle=handle, flow=flow,
            infer_shape=infer_shape, element_shape=element_shape,
            colocate_with_first_write_call=colocate_with_first_write_call, name=name)
        self._implementation.parent = weakref.ref(self)

    flow = property(lambda self: self._implementation._flow, doc="The flow Tensor.")
    dtype = property(lambda self: self._implementation._dtype, doc="The element dtype.")
    handle = property(lambda self: self._implementation.handle,
                      doc="The TensorArrayV3 handle (None under control flow v2).")
    element_shape = property(lambda self: self._implementation.element_shape,
                             doc="The TensorShape of the elements.")
    dynamic_size = property(lambda self: self._implementation._dynamic_size)
    _infer_shape = property(lambda self: self._implementation._infer_shape)

    def identity(self):
        """A TensorArray whose flow is an Identity of this one's."""
        return self._implementation.identity()

    def grad(self, source, flow=None, name=None):
        """The gradient TensorArray for `source` (TensorArrayGradV3; v1 only)."""
        return self._implementation.grad(source, flow=flow, name=name)

    def read(self, index, name=None):
        """Element `index` (int32 scalar)."""
        return self._implementation.read(index, name=name)

    def write(self, index, value, name=None):
        """A new TensorArray with `value` written at `index`."""
        return self._implementation.write(index, value, name=name)

    def stack(self, name=None):
        """All elements stacked along a new dim 0."""
        return self._implementation.stack(name=name)

    def gather(self, indices, name=None):
        """Elements `indices` (int32 vector) stacked."""
        return self._implementation.gather(indices, name=name)

    def concat(self, name=None):
        """All elements joined along dim 0."""
        return self._implementation.concat(name=name)

    def unstack(self, value, name=None):
        """A new TensorArray holding the rows of `value`."""
        return self._implementation.unstack(value, name=name)

    def scatter(self, indices, value, name=None):
        """A new TensorArray with row i of `value` at indices[i]."""
        return self._implementation.scatter(indices, value, name=name)

    def split(self, value, lengths, name=None):
        """A new TensorArray holding `value` cut along dim 0 into pieces of `lengths`."""
        return self._implementation.split(value, lengths, name=name)

    def size(self, name=None):
        """The number of elements (int32 scalar)."""
        return self._implementation.size(name=name)

    def close(self, name=None):
        """Closes the array (TensorArrayCloseV3; a NoOp under v2)."""
        return self._implementation.close(name=name)


def build_ta_with_new_flow(old_ta, flow):
    """A TensorArray like `old_ta` (sharing its element shape) with a new flow."""
    impl = old_ta._implementation if isinstance(old_ta, TensorArray) else old_ta
    if not isinstance(impl, _GraphTensorArrayV2) and \
            control_flow_util.EnableControlFlowV2(ops.get_default_graph()):
        raise NotImplementedError(
            "Attempting to build a graph-mode TF2-style TensorArray from either an eager-mode "
            "TensorArray or a TF1-style TensorArray.  This is not currently supported.  You "
            "may be attempting to capture a TensorArray inside a tf.function or tf.data map "
            "function. Instead, construct a new TensorArray inside the function.")
    new_ta = TensorArray(dtype=impl.dtype, handle=impl.handle, flow=flow,
                         infer_shape=impl._infer_shape,
                         colocate_with_first_write_call=impl._colocate_with_first_write_call)
    new_impl = new_ta._implementation
    new_impl._dynamic_size = impl._dynamic_size
    new_impl._size = impl._size
    new_impl._colocate_with = impl._colocate_with
    new_impl._element_shape = impl._element_shape
    return new_ta
