"""RNN cells (tf.nn.rnn_cell / tf.compat.v1.nn.rnn_cell; in TensorFlow 2.21 these are
tf-keras's legacy cells): RNNCell, BasicRNNCell, BasicLSTMCell, LSTMCell, GRUCell,
MultiRNNCell, DropoutWrapper, ResidualWrapper, LSTMStateTuple.

A cell behaves like a TF1 layer: on its first call it opens a variable scope named after
its class ("basic_lstm_cell", "lstm_cell", "gru_cell", "multi_rnn_cell"; made unique as
variable_scope(default_name=...) does) under the current one, creates its variables there
with get_variable, and later calls reuse that scope, so variables get TensorFlow's names
(rnn/basic_lstm_cell/kernel, rnn/multi_rnn_cell/cell_0/lstm_cell/bias,
bidirectional_rnn/fw/gru_cell/gates/kernel) and checkpoints line up. Variables are resource
variables (as Keras makes them); kernels default to the variable scope's initializer
(glorot_uniform), biases to zeros (GRU gates: ones). Ops of each call are built in the
cell's name scope (rnn/lstm_cell/MatMul, rnn/lstm_cell/MatMul_1, ...), with TensorFlow's op
sequence, so values equal TensorFlow's.
"""
import collections
import hashlib

from minitf.framework import dtypes, ops, tensor_shape, tensor_util
from minitf.framework.constant_op import constant
from minitf.ops import array_ops, init_ops, math_ops, nn_ops
from minitf.ops import variable_scope as vs
from minitf.util import nest


def _snake(name):
    """TensorFlow's to_snake_case: BasicLSTMCell -> basic_lstm_cell."""
    import re
    s = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def _concat(prefix, suffix, static=False):
    """[prefix] + [suffix] as an int32 vector (or, static, a list with None for unknown
    dims); prefix/suffix are ints, shapes or int32 tensors (TensorFlow's rnn_cell_impl._concat).
    ValueError for a prefix tensor that is not a scalar or vector, or when a non-static
    concat has an unknown part."""
    if isinstance(prefix, ops.Tensor):
        p = prefix
        p_static = tensor_util.constant_value(prefix)
        if p.shape.ndims == 0:
            p = array_ops.expand_dims(p, 0)
        elif p.shape.ndims != 1:
            raise ValueError("Prefix tensor must be either a scalar or vector, but saw tensor: "
                             "%s" % p)
    else:
        p = tensor_shape.as_shape(prefix)
        p_static = p.as_list() if p.ndims is not None else None
        p = constant(p.as_list(), dtype=dtypes.int32) if p.is_fully_defined() else None
    if isinstance(suffix, ops.Tensor):
        s = suffix
        s_static = tensor_util.constant_value(suffix)
        if s.shape.ndims == 0:
            s = array_ops.expand_dims(s, 0)
        elif s.shape.ndims != 1:
            raise ValueError("suffix tensor must be either a scalar or vector, but saw tensor: "
                             "%s" % s)
    else:
        s = tensor_shape.as_shape(suffix)
        s_static = s.as_list() if s.ndims is not None else None
        s = constant(s.as_list(), dtype=dtypes.int32) if s.is_fully_defined() else None
    if static:
        shape = tensor_shape.as_shape(p_static).concatenate(s_static)
        return shape.as_list() if shape.ndims is not None else None
    if p is None or s is None:
        raise ValueError("Provided a prefix or suffix of None: %s and %s" % (prefix, suffix))
    return array_ops.concat((p, s), 0)


def _zero_state_tensors(state_size, batch_size, dtype):
    def get_state_shape(s):
        size = array_ops.zeros(_concat(batch_size, s), dtype=dtype)
        size.set_shape(_concat(batch_size, s, static=True))
        return size
    return nest.map_structure(get_state_shape, state_size)


def assert_like_rnncell(cell_name, cell):
    """TypeError unless `cell` has output_size, state_size, get_initial_state (or
    zero_state) and is callable (TensorFlow's message)."""
    conditions = [hasattr(cell, "output_size"), hasattr(cell, "state_size"),
                  hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
                  callable(cell)]
    errors = ["'output_size' property is missing", "'state_size' property is missing",
              "either 'zero_state' or 'get_initial_state' method is required",
              "is not callable"]
    if not all(conditions):
        errors = [error for error, cond in zip(errors, conditions) if not cond]
        raise TypeError("The argument {!r} ({}) is not an RNNCell: {}.".format(
            cell_name, cell, ", ".join(errors)))


class RNNCell:
    """Abstract RNN cell (tf.compat.v1.nn.rnn_cell.RNNCell): subclasses define state_size,
    output_size, build(inputs_shape) (variables via add_weight) and call(inputs, state) ->
    (output, new_state). `cell(inputs, state, scope=None)` builds on first use in its own
    variable scope and reuses it afterwards."""

    def __init__(self, trainable=True, name=None, dtype=None, _reuse=None, **kwargs):
        self.trainable = trainable
        self._name = name
        self._base_name = name or _snake(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._reuse = _reuse
        self._scope = None
        self.built = False
        self._weights = []
        self._is_tf_rnn_cell = True

    name = property(lambda self: self._name or self._base_name)
    dtype = property(lambda self: self._dtype)

    @property
    def variables(self):
        return list(self._weights)

    weights = variables
    trainable_variables = property(lambda self: [v for v in self._weights if v.trainable])
    trainable_weights = trainable_variables

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def build(self, inputs_shape):
        self.built = True

    def call(self, inputs, state):
        raise NotImplementedError("Abstract method")

    def add_weight(self, name, shape, dtype=None, initializer=None, trainable=True, **kwargs):
        """get_variable(name) in the cell's scope (a resource variable)."""
        v = vs.get_variable(name, shape=shape, dtype=dtype or self._dtype or dtypes.float32,
                            initializer=initializer, trainable=trainable and self.trainable,
                            use_resource=True)
        self._weights.append(v)
        return v

    add_variable = add_weight

    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with vs.variable_scope(scope if scope is not None else self._base_name) as s:
                    self._scope = s
            else:
                with vs.variable_scope(scope, default_name=self._base_name) as s:
                    self._scope = s

    def __call__(self, inputs, state, scope=None):
        """(output, new_state) of one step; builds the cell's variables on the first call.

        As TF's RNNCell, the step runs inside `scope` or else inside the variable scope
        current at the first call, re-entered by object: that opens a name scope named after
        its last component within the current one, so a MultiRNNCell under static_rnn's
        "rnn" scope creates its ops under "rnn/rnn/multi_rnn_cell/" (variables stay
        "rnn/multi_rnn_cell/..."). LayerRNNCell (the built-in cells) skips this."""
        if scope is not None:
            with vs.variable_scope(scope) as entered:
                return self._layer_call(inputs, state, entered)
        outer = getattr(self, "_rnncell_scope", None)
        if outer is None:
            outer = self._rnncell_scope = vs.get_variable_scope()
        with vs.variable_scope(outer):
            return self._layer_call(inputs, state)

    def _layer_call(self, inputs, state, scope=None):
        """The tf.layers Layer.__call__ part: the cell's own scope, built once."""
        self._set_scope(scope)
        if self._dtype is None:
            first = nest.flatten(inputs)[0]
            self._dtype = dtypes.as_dtype(getattr(first, "dtype", dtypes.float32)).base_dtype
        with vs.variable_scope(self._scope, reuse=True if self.built else self._reuse,
                               auxiliary_name_scope=False):
            with ops.name_scope(self._scope.original_name_scope):
                inputs = nest.map_structure(ops.convert_to_tensor, inputs)
                if not self.built:
                    shapes = nest.map_structure(lambda t: t.shape, inputs)
                    self.build(shapes)
                    self.built = True
                return self.call(inputs, state)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """zero_state(batch_size, dtype), taking them from `inputs` when given."""
        if inputs is not None:
            inputs = ops.convert_to_tensor(inputs)
            if batch_size is None:
                batch_size = tensor_shape.dimension_value(inputs.shape[0]) or \
                    array_ops.shape(inputs)[0]
            dtype = dtype or inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial "
                             "state: batch_size={}, dtype={}".format(batch_size, dtype))
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size, dtype):
        """Zeros of shape [batch_size] + s for each s in state_size, in the name scope
        "<Class>ZeroState" (TensorFlow's)."""
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return _zero_state_tensors(self.state_size, batch_size, dtype)


class LayerRNNCell(RNNCell):
    """An RNNCell called directly in its own layer scope (TF's LayerRNNCell, the base of
    BasicRNNCell, GRUCell, BasicLSTMCell and LSTMCell): no outer scope is re-entered, so
    its ops are named "rnn/basic_lstm_cell/..." under static_rnn."""

    def __call__(self, inputs, state, scope=None):
        return self._layer_call(inputs, state, scope)


def _input_depth(inputs_shape, cls):
    depth = tensor_shape.dimension_value(tensor_shape.as_shape(inputs_shape)[-1])
    if depth is None:
        raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s"
                         % tensor_shape.as_shape(inputs_shape))
    return depth


class BasicRNNCell(LayerRNNCell):
    """output = new_state = activation(W [inputs, state] + b) (tf.nn.rnn_cell.BasicRNNCell).

    Args: num_units; activation (default tanh); reuse; name; dtype.
    Variables: kernel [input_depth + num_units, num_units], bias [num_units] (zeros).
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape, self)
        self._kernel = self.add_weight("kernel", shape=[depth + self._num_units,
                                                        self._num_units])
        self._bias = self.add_weight("bias", shape=[self._num_units],
                                     initializer=init_ops.zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs, state):
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel)
        output = self._activation(nn_ops.bias_add(gate_inputs, self._bias))
        return output, output


class GRUCell(LayerRNNCell):
    """Gated recurrent unit cell (tf.nn.rnn_cell.GRUCell, Cho et al. 2014).

    Args: num_units; activation (tanh); reuse; kernel_initializer; bias_initializer
    (default ones for the gates, zeros for the candidate); name; dtype.
    Variables: gates/kernel [d + n, 2n], gates/bias [2n], candidate/kernel [d + n, n],
    candidate/bias [n].
    """

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._activation = activation or math_ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape, self)
        n = self._num_units
        self._gate_kernel = self.add_weight("gates/kernel", shape=[depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            "gates/bias", shape=[2 * n],
            initializer=self._bias_initializer if self._bias_initializer is not None else
            init_ops.constant_initializer(1.0, dtype=self.dtype))
        self._candidate_kernel = self.add_weight("candidate/kernel", shape=[depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            "candidate/bias", shape=[n],
            initializer=self._bias_initializer if self._bias_initializer is not None else
            init_ops.zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs, state):
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel)
        gate_inputs = nn_ops.bias_add(gate_inputs, self._gate_bias)
        value = math_ops.sigmoid(gate_inputs)
        r, u = array_ops.split(value=value, num_or_size_splits=2, axis=1)
        r_state = r * state
        candidate = math_ops.matmul(array_ops.concat([inputs, r_state], 1),
                                    self._candidate_kernel)
        candidate = nn_ops.bias_add(candidate, self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


_LSTMStateTuple = collections.namedtuple("LSTMStateTuple", ("c", "h"))


class LSTMStateTuple(_LSTMStateTuple):
    """(c, h): an LSTM cell's state, c the cell state, h the output
    (tf.nn.rnn_cell.LSTMStateTuple)."""
    __slots__ = ()

    @property
    def dtype(self):
        (c, h) = self
        if c.dtype != h.dtype:
            raise TypeError("Inconsistent internal state: %s vs %s" % (str(c.dtype),
                                                                      str(h.dtype)))
        return c.dtype


class BasicLSTMCell(LayerRNNCell):
    """LSTM without peepholes or projection (tf.nn.rnn_cell.BasicLSTMCell).

    Args: num_units; forget_bias (added to the forget gate, default 1.0); state_is_tuple
    (state is LSTMStateTuple(c, h), else their concatenation); activation (tanh); reuse;
    name; dtype. Variables: kernel [d + n, 4n] (gates i, j, f, o), bias [4n] (zeros).
    """

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or math_ops.tanh

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape, self)
        n = self._num_units
        self._kernel = self.add_weight("kernel", shape=[depth + n, 4 * n])
        self._bias = self.add_weight("bias", shape=[4 * n],
                                     initializer=init_ops.zeros_initializer(dtype=self.dtype))
        self.built = True

    def call(self, inputs, state):
        one = constant(1, dtype=dtypes.int32)
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(value=state, num_or_size_splits=2, axis=one)
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel)
        gate_inputs = nn_ops.bias_add(gate_inputs, self._bias)
        i, j, f, o = array_ops.split(value=gate_inputs, num_or_size_splits=4, axis=one)
        forget_bias_tensor = constant(self._forget_bias, dtype=f.dtype)
        sigmoid = math_ops.sigmoid
        new_c = math_ops.add(math_ops.multiply(c, sigmoid(math_ops.add(f, forget_bias_tensor))),
                             math_ops.multiply(sigmoid(i), self._activation(j)))
        new_h = math_ops.multiply(self._activation(new_c), sigmoid(o))
        if self._state_is_tuple:
            return new_h, LSTMStateTuple(new_c, new_h)
        return new_h, array_ops.concat([new_c, new_h], 1)


class LSTMCell(LayerRNNCell):
    """LSTM with optional peepholes, cell clipping and a projection (tf.nn.rnn_cell.LSTMCell).

    Args: num_units; use_peepholes (diagonal peephole weights w_f_diag, w_i_diag, w_o_diag);
    cell_clip (c clipped to [-cell_clip, cell_clip]); initializer (kernels and peepholes);
    num_proj (output projected to this size by projection/kernel); proj_clip; forget_bias;
    state_is_tuple; activation (tanh); reuse; name; dtype. num_unit_shards/num_proj_shards
    are not supported (partitioned variables).
    Variables: kernel [d + h, 4n] with h = num_proj or n, bias [4n] (zeros).
    Raises ValueError when the input depth is unknown.
    """

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        if num_unit_shards is not None or num_proj_shards is not None:
            raise NotImplementedError("minitf has no partitioned variables (num_unit_shards, "
                                      "num_proj_shards)")
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or math_ops.tanh

    @property
    def state_size(self):
        h = self._num_proj or self._num_units
        return LSTMStateTuple(self._num_units, h) if self._state_is_tuple else \
            self._num_units + h

    output_size = property(lambda self: self._num_proj or self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape, self)
        n = self._num_units
        h_depth = n if self._num_proj is None else self._num_proj
        self._kernel = self.add_weight("kernel", shape=[depth + h_depth, 4 * n],
                                       initializer=self._initializer)
        self._bias = self.add_weight("bias", shape=[4 * n],
                                     initializer=init_ops.zeros_initializer(dtype=self.dtype))
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[n], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[n], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight("projection/kernel", shape=[n, self._num_proj],
                                                initializer=self._initializer)
        self.built = True

    def call(self, inputs, state):
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        sigmoid = math_ops.sigmoid
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            from minitf.ops.indexing_ops import slice as slice_
            c_prev = slice_(state, [0, 0], [-1, self._num_units])
            m_prev = slice_(state, [0, self._num_units], [-1, num_proj])
        if tensor_shape.dimension_value(inputs.shape.with_rank(2)[1]) is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        lstm_matrix = math_ops.matmul(array_ops.concat([inputs, m_prev], 1), self._kernel)
        lstm_matrix = nn_ops.bias_add(lstm_matrix, self._bias)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev + \
                sigmoid(i + self._w_i_diag * c_prev) * self._activation(j)
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else \
            array_ops.concat([c, m], 1)
        return m, new_state


class MultiRNNCell(RNNCell):
    """Cells stacked: each cell's output feeds the next (tf.nn.rnn_cell.MultiRNNCell); cell i
    works in variable scope "cell_i".

    Args: cells (a non-empty list); state_is_tuple (state is a tuple of the cells' states,
    else their concatenation along axis 1).
    Raises ValueError for no cells, TypeError when cells is not a sequence.
    """

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError("cells must be a list or tuple, but saw: %s." % (cells,))
        self._cells = cells
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple "
                             "is not set.  State sizes are: %s"
                             % str([c.state_size for c in self._cells]))

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    output_size = property(lambda self: self._cells[-1].output_size)

    @property
    def variables(self):
        return [v for c in self._cells for v in c.variables]

    weights = variables

    def zero_state(self, batch_size, dtype):
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return super().zero_state(batch_size, dtype)

    def build(self, inputs_shape):
        self.built = True

    def call(self, inputs, state):
        from minitf.ops.indexing_ops import slice as slice_
        cur_state_pos = 0
        cur_inp = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with vs.variable_scope("cell_%d" % i):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError("Expected state to be a tuple of length %d, but "
                                         "received: %s" % (len(self.state_size), state))
                    cur_state = state[i]
                else:
                    cur_state = slice_(state, [0, cur_state_pos], [-1, cell.state_size])
                    cur_state_pos += cell.state_size
                cur_inp, new_state = cell(cur_inp, cur_state)
                new_states.append(new_state)
        new_states = tuple(new_states) if self._state_is_tuple else \
            array_ops.concat(new_states, 1)
        return cur_inp, new_states


class _RNNCellWrapper(RNNCell):
    """A cell around another cell: it opens no variable scope of its own, so the wrapped
    cell's variables keep their names."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        assert_like_rnncell("cell", cell)
        self.cell = cell

    state_size = property(lambda self: self.cell.state_size)
    output_size = property(lambda self: self.cell.output_size)
    variables = property(lambda self: self.cell.variables)
    weights = variables

    def zero_state(self, batch_size, dtype):
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, self.cell.__call__, scope=scope)


def _default_dropout_state_filter_visitor(substate):
    """TF's default: an LSTM's memory c is never dropped, only its h."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return True


def _filtered_structure(visitor, structure):
    """nest.get_traverse_shallow_structure: for every part of `structure`, whether dropout
    applies (a bool per leaf, or a deeper structure where the visitor says so)."""
    keep = visitor(structure)
    if isinstance(keep, bool):
        if not keep or not nest.is_nested(structure):
            return keep
        return nest._rebuild(structure, [_filtered_structure(visitor, c)
                                         for c in nest._children(structure)])
    return keep


def _enumerated_map_up_to(shallow, fn, *structures):
    """fn(index, the leaves of each structure at one leaf of `shallow`), the index counting
    every leaf of `shallow` in order (TF's _enumerated_map_structure_up_to)."""
    count = [0]

    def walk(sh, *parts):
        if not nest.is_nested(sh):
            r = fn(count[0], *parts)
            count[0] += 1
            return r
        kids = [nest._children(p) for p in parts]
        return nest._rebuild(sh, [walk(c, *[k[i] for k in kids])
                                  for i, c in enumerate(nest._children(sh))])
    return walk(shallow, *structures)


class DropoutWrapper(_RNNCellWrapper):
    """Dropout on a cell's inputs, outputs and/or state (tf.nn.rnn_cell.DropoutWrapper).

    Args: cell; input_keep_prob, output_keep_prob, state_keep_prob (floats or scalar
    tensors in (0, 1]; a float 1.0 applies no dropout at all); variational_recurrent (one
    noise per sequence, drawn once when the wrapper is built: the same units are dropped at
    every step; needs dtype, and input_size when inputs are dropped); input_size (the
    inputs' depth, nested like them); dtype; seed (each dropout's op seed is derived from it
    and its place, as TF's, so the masks equal TF's for the same graph seed);
    dropout_state_filter_visitor (which state parts to drop; default: all but an LSTM's c).
    Raises ValueError for a constant keep probability outside [0, 1], for
    variational_recurrent without dtype, or without input_size when inputs are dropped.
    """

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable. Received: %s"
                            % (dropout_state_filter_visitor,))
        self._dropout_state_filter = (dropout_state_filter_visitor or
                                      _default_dropout_state_filter_visitor)
        # Each probability becomes a tensor (Const ops in "DropoutWrapperInit"); a constant
        # one is kept as a float, so 1.0 applies no dropout at all.
        with ops.name_scope("DropoutWrapperInit"):
            for prob, attr in [(input_keep_prob, "input_keep_prob"),
                               (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")]:
                tensor_prob = ops.convert_to_tensor(prob)
                const_prob = tensor_util.constant_value(tensor_prob)
                if const_prob is not None:
                    if const_prob < 0 or const_prob > 1:
                        raise ValueError("Parameter %s must be between 0 and 1. Received %s"
                                         % (attr, const_prob))
                    setattr(self, "_%s" % attr, float(const_prob))
                else:
                    setattr(self, "_%s" % attr, tensor_prob)
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._recurrent_input_noise = None
        self._recurrent_state_noise = None
        self._recurrent_output_noise = None
        if variational_recurrent:
            self._make_recurrent_noise(cell, input_size, dtype)

    def _make_recurrent_noise(self, cell, input_size, dtype):
        """The noise variational_recurrent reuses at every step: uniform [0, 1) of shape
        [1] + size per part (one mask for the whole batch), drawn in the outer graph."""
        from minitf.ops import random_ops
        if dtype is None:
            raise ValueError("When variational_recurrent=True, dtype must be provided")

        def batch_noise(size, inner_seed):
            shape = array_ops.concat(([1], tensor_shape.TensorShape(size).as_list()), 0)
            return random_ops.random_uniform(shape, seed=inner_seed, dtype=dtype)

        def noise_for(sizes, prefix):
            return _enumerated_map_up_to(
                sizes, lambda i, size: batch_noise(size, self._gen_seed(prefix, i)), sizes)
        if not isinstance(self._input_keep_prob, float) or self._input_keep_prob < 1.0:
            if input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or "
                                 "is unknown, input_size must be provided")
            self._recurrent_input_noise = noise_for(input_size, "input")
        self._recurrent_state_noise = noise_for(cell.state_size, "state")
        self._recurrent_output_noise = noise_for(cell.output_size, "output")

    def _gen_seed(self, salt_prefix, index):
        """The op seed of dropout `index` of kind salt_prefix: TF's md5 of seed + salt."""
        if self._seed is None:
            return None
        string = (str(self._seed) + "%s_%d" % (salt_prefix, index)).encode("utf-8")
        return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF

    @staticmethod
    def _should_dropout(p):
        return (not isinstance(p, float)) or p < 1

    def _dropout(self, values, salt_prefix, noise, keep_prob, shallow=None):
        shallow = values if shallow is None else shallow

        def apply(i, do_dropout, v, *n):
            if isinstance(do_dropout, bool) and not do_dropout:
                return v
            if not self._variational_recurrent:
                return nn_ops.dropout_v2(v, rate=1. - keep_prob,
                                         seed=self._gen_seed(salt_prefix, i))
            # uniform [keep_prob, 1 + keep_prob) floored: 1 with probability keep_prob
            ret = math_ops.divide(v, keep_prob) * math_ops.floor(keep_prob + n[0])
            ret.set_shape(v.shape)
            return ret
        if self._variational_recurrent:
            return _enumerated_map_up_to(shallow, apply, shallow, values, noise)
        return _enumerated_map_up_to(shallow, apply, shallow, values)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, scope=None):
        if self._should_dropout(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise,
                                   self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, scope=scope)
        if self._should_dropout(self._state_keep_prob):
            shallow = _filtered_structure(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise,
                                      self._state_keep_prob, shallow)
        if self._should_dropout(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise,
                                   self._output_keep_prob)
        return output, new_state


class ResidualWrapper(_RNNCellWrapper):
    """The wrapped cell's output plus its input (tf.nn.rnn_cell.ResidualWrapper); residual_fn
    (inputs, outputs) -> outputs replaces the addition. The structures (and sizes) of inputs
    and outputs must match."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, scope=None):
        outputs, new_state = cell_call_fn(inputs, state, scope=scope)

        def assert_shape_match(inp, out):
            inp.shape.assert_is_compatible_with(out.shape)

        def default_residual_fn(inputs, outputs):
            nest.assert_same_structure(inputs, outputs)
            nest.map_structure(assert_shape_match, inputs, outputs)
            return nest.map_structure(lambda inp, out: inp + out, inputs, outputs)
        res_outputs = (self._residual_fn or default_residual_fn)(inputs, outputs)
        return res_outputs, new_state
