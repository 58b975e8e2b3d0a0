"""Running RNN cells over sequences (TensorFlow's rnn.py, tf.compat.v1.nn): dynamic_rnn
(one while_loop over TensorArrays; a StatelessWhile under control flow v2),
bidirectional_dynamic_rnn, static_rnn (the cell unrolled over a Python list of inputs) and
static_bidirectional_rnn, with TensorFlow's scopes ("rnn", "bidirectional_rnn/fw", ...), so
variable names equal TensorFlow's, and TensorFlow's op sequence, so values do.
"""
from minitf.framework import dtypes, ops, tensor_shape
from minitf.ops import array_ops, math_ops, reduction_ops, tensor_array_ops
from minitf.ops import variable_scope as vs
from minitf.ops.rnn_cell_impl import _concat, assert_like_rnncell
from minitf.util import nest


def _transpose_batch_time(x):
    """x with dims 0 and 1 swapped (rank >= 2; lower ranks pass through)."""
    x_static_shape = x.shape
    if x_static_shape.ndims is not None and x_static_shape.ndims < 2:
        return x
    x_rank = array_ops.rank(x)
    x_t = array_ops.transpose(x, array_ops.concat(([1, 0], array_ops.range(2, x_rank)), axis=0))
    x_t.set_shape(tensor_shape.TensorShape(
        [x_static_shape.dims[1].value, x_static_shape.dims[0].value]).concatenate(
            x_static_shape[2:]))
    return x_t


def _best_effort_input_batch_size(flat_input):
    for input_ in flat_input:
        shape = input_.shape
        if shape.ndims is None:
            continue
        if shape.ndims < 2:
            raise ValueError("Input tensor should have rank >= 2. Received input=%s of rank %s"
                             % (input_, shape.ndims))
        batch_size = shape.dims[1].value
        if batch_size is not None:
            return batch_size
    return array_ops.shape(flat_input[0])[1]


def _infer_state_dtype(explicit_dtype, state):
    if explicit_dtype is not None:
        return explicit_dtype
    if nest.is_nested(state):
        inferred = [e.dtype for e in nest.flatten(state)]
        if not inferred:
            raise ValueError("Unable to infer dtype from argument state={}.".format(state))
        if any(d != inferred[0] for d in inferred):
            raise ValueError("Unable to infer the dtype of the state, state has "
                             "non-homogeneous dtypes: {}.".format(inferred))
        return inferred[0]
    return state.dtype


def _maybe_tensor_shape_from_tensor(shape):
    return shape if isinstance(shape, ops.Tensor) else tensor_shape.as_shape(shape)


def _should_cache():
    return not ops.get_default_graph().building_function


def _set_caching(varscope):
    if _should_cache() and varscope.caching_device is None:
        varscope.set_caching_device(lambda op: op.device)


def _rnn_step(time, sequence_length, min_sequence_length, max_sequence_length, zero_output,
              state, call_cell, state_size, skip_conditionals=False):
    """One step with sequence lengths: batch entries past their length get zero output
    and keep their state (Select on time >= sequence_length); without skip_conditionals
    a tf.cond skips the cell when every entry is done (time >= max_sequence_length) and
    the selection when none is (time < min_sequence_length)."""
    from minitf.ops.control_flow_ops import cond
    flat_state = nest.flatten(state)
    flat_zero_output = nest.flatten(zero_output)
    copy_cond = time >= sequence_length

    def _copy_one_through(output, new_output):
        if isinstance(output, tensor_array_ops.TensorArray) or output.shape.ndims == 0:
            return new_output
        with ops.colocate_with(new_output):
            return math_ops.where(copy_cond, output, new_output)

    def _copy_some_through(flat_new_output, flat_new_state):
        flat_new_output = [_copy_one_through(z, n)
                           for z, n in zip(flat_zero_output, flat_new_output)]
        flat_new_state = [_copy_one_through(s, n) for s, n in zip(flat_state, flat_new_state)]
        return flat_new_output + flat_new_state

    def _maybe_copy_some_through():
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        flat_new_state = nest.flatten(new_state)
        flat_new_output = nest.flatten(new_output)
        return cond(time < min_sequence_length, lambda: flat_new_output + flat_new_state,
                    lambda: _copy_some_through(flat_new_output, flat_new_state))

    if skip_conditionals:
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        final = _copy_some_through(nest.flatten(new_output), nest.flatten(new_state))
    else:
        final = cond(time >= max_sequence_length, lambda: flat_zero_output + flat_state,
                     _maybe_copy_some_through)
    if len(final) != len(flat_zero_output) + len(flat_state):
        raise ValueError("Internal error: state and output were not concatenated correctly.")
    final_output = final[:len(flat_zero_output)]
    final_state = final[len(flat_zero_output):]
    for output, flat_output in zip(final_output, flat_zero_output):
        output.set_shape(flat_output.shape)
    for substate, flat_substate in zip(final_state, flat_state):
        if not isinstance(substate, tensor_array_ops.TensorArray):
            substate.set_shape(flat_substate.shape)
    return (nest.pack_sequence_as(zero_output, final_output),
            nest.pack_sequence_as(state, final_state))


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
    """Runs `cell` over the time steps of `inputs` in one while_loop
    (tf.compat.v1.nn.dynamic_rnn).

    Args:
      cell: an RNNCell.
      inputs: [batch, time, ...] (or [time, batch, ...] with time_major) tensor, or a
        nested structure of them.
      sequence_length: int32/int64 [batch] vector; past its length an entry's output is
        zeros and its state is copied through; the loop stops at max(sequence_length).
      initial_state: the cell's initial state (default cell.zero_state(batch, dtype)).
      dtype: the state's dtype when initial_state is not given (then required).
      parallel_iterations (default 32), swap_memory: while_loop's.
      time_major: inputs and outputs are [time, batch, ...].
      scope: the variable scope (default "rnn").
    Returns: (outputs, state): outputs [batch, time, output_size] (time major if asked),
      state the final state (structured like cell.state_size).
    Raises: TypeError when cell is not an RNNCell; ValueError without dtype nor
      initial_state, for a sequence_length that is not a vector, or inputs whose depth is
      unknown or whose time/batch sizes differ.
    """
    assert_like_rnncell("cell", cell)
    with vs.variable_scope(scope or "rnn") as varscope:
        _set_caching(varscope)
        flat_input = nest.flatten(inputs)
        if not time_major:
            flat_input = [ops.convert_to_tensor(x) for x in flat_input]
            flat_input = tuple(_transpose_batch_time(x) for x in flat_input)
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("sequence_length must be a vector of length batch_size, but "
                                 "saw shape: %s" % sequence_length.shape)
            sequence_length = array_ops.identity(sequence_length, name="sequence_length")
        batch_size = _best_effort_input_batch_size(flat_input)
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If there is no initial_state, you must give a dtype.")
            state = cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype) \
                if getattr(cell, "get_initial_state", None) is not None else \
                cell.zero_state(batch_size, dtype)

        def _assert_has_shape(x, shape):
            from minitf.ops.logging_ops import Assert
            x_shape = array_ops.shape(x)
            packed_shape = array_ops.stack(shape)
            return Assert(reduction_ops.reduce_all(math_ops.equal(x_shape, packed_shape)),
                          ["Expected shape for Tensor %s is " % x.name, packed_shape,
                           " but saw shape: ", x_shape])
        if sequence_length is not None:
            with ops.control_dependencies([_assert_has_shape(sequence_length, [batch_size])]):
                sequence_length = array_ops.identity(sequence_length, name="CheckSeqLen")
        inputs = nest.pack_sequence_as(inputs, flat_input)
        outputs, final_state = _dynamic_rnn_loop(
            cell, inputs, state, parallel_iterations=parallel_iterations,
            swap_memory=swap_memory, sequence_length=sequence_length, dtype=dtype)
        if not time_major:
            outputs = nest.map_structure(_transpose_batch_time, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell, inputs, initial_state, parallel_iterations, swap_memory,
                      sequence_length=None, dtype=None):
    from minitf.ops.control_flow_ops import while_loop
    state = initial_state
    state_size = cell.state_size
    flat_input = nest.flatten(inputs)
    flat_output_size = nest.flatten(cell.output_size)
    input_shape = array_ops.shape(flat_input[0])
    time_steps = input_shape[0]
    batch_size = _best_effort_input_batch_size(flat_input)
    inputs_got_shape = tuple(x.shape.with_rank_at_least(3) for x in flat_input)
    const_time_steps, const_batch_size = inputs_got_shape[0].as_list()[:2]
    for shape in inputs_got_shape:
        if not shape[2:].is_fully_defined():
            raise ValueError("Input size (depth of inputs) must be accessible via shape "
                             "inference, but saw value None.")
        if const_time_steps != shape.dims[0].value:
            raise ValueError("Time steps is not the same for all the elements in the input in "
                             "a batch.")
        if const_batch_size != shape.dims[1].value:
            raise ValueError("Batch_size is not the same for all the elements in the input.")
    state_dtype = _infer_state_dtype(dtype, state)

    def _create_zero_arrays(size):
        return array_ops.zeros(array_ops.stack(_concat(batch_size, size)), state_dtype)
    flat_zero_output = tuple(_create_zero_arrays(s) for s in flat_output_size)
    zero_output = nest.pack_sequence_as(cell.output_size, flat_zero_output)
    if sequence_length is not None:
        min_sequence_length = reduction_ops.reduce_min(sequence_length)
        max_sequence_length = reduction_ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = ops.convert_to_tensor(0, dtype=dtypes.int32, name="time")
    with ops.name_scope("dynamic_rnn") as scope:
        base_name = scope

    def _create_ta(name, element_shape, dtype):
        return tensor_array_ops.TensorArray(dtype=dtype, size=time_steps,
                                            element_shape=element_shape,
                                            tensor_array_name=base_name + name)
    output_ta = tuple(_create_ta(
        "output_%d" % i, element_shape=tensor_shape.TensorShape([const_batch_size]).concatenate(
            _maybe_tensor_shape_from_tensor(out_size)), dtype=state_dtype)
        for i, out_size in enumerate(flat_output_size))
    input_ta = tuple(_create_ta("input_%d" % i, element_shape=x.shape[1:], dtype=x.dtype)
                     for i, x in enumerate(flat_input))
    input_ta = tuple(ta.unstack(x) for ta, x in zip(input_ta, flat_input))

    def _time_step(time, output_ta_t, state):
        input_t = tuple(ta.read(time) for ta in input_ta)
        for input_, shape in zip(input_t, inputs_got_shape):
            input_.set_shape(shape[1:])
        input_t = nest.pack_sequence_as(inputs, input_t)

        def call_cell():
            return cell(input_t, state)
        if sequence_length is not None:
            output, new_state = _rnn_step(
                time=time, sequence_length=sequence_length,
                min_sequence_length=min_sequence_length,
                max_sequence_length=max_sequence_length, zero_output=zero_output, state=state,
                call_cell=call_cell, state_size=state_size, skip_conditionals=True)
        else:
            output, new_state = call_cell()
        output = nest.flatten(output)
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, output))
        return (time + 1, output_ta_t, new_state)

    loop_bound = math_ops.minimum(time_steps, math_ops.maximum(1, max_sequence_length))
    _, output_final_ta, final_state = while_loop(
        lambda time, *_: time < loop_bound, _time_step, (time, output_ta, state),
        parallel_iterations=parallel_iterations, maximum_iterations=time_steps,
        swap_memory=swap_memory)
    final_outputs = tuple(ta.stack() for ta in output_final_ta)
    for output, output_size in zip(final_outputs, flat_output_size):
        output.set_shape(_concat([const_time_steps, const_batch_size], output_size,
                                 static=True))
    return nest.pack_sequence_as(cell.output_size, final_outputs), final_state


def _reverse(input_, seq_lengths, seq_axis, batch_axis):
    if seq_lengths is not None:
        return array_ops.reverse_sequence(input=input_, seq_lengths=seq_lengths,
                                          seq_axis=seq_axis, batch_axis=batch_axis)
    return array_ops.reverse(input_, axis=[seq_axis])


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
    """dynamic_rnn forward (scope "<scope>/fw") and over the reversed sequences backward
    ("<scope>/bw"; scope defaults to "bidirectional_rnn")
    (tf.compat.v1.nn.bidirectional_dynamic_rnn).

    Returns: ((output_fw, output_bw), (output_state_fw, output_state_bw)); output_bw is
      reversed back into input order. Arguments and errors as dynamic_rnn's.
    """
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = dynamic_rnn(
                cell=cell_fw, inputs=inputs, sequence_length=sequence_length,
                initial_state=initial_state_fw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=fw_scope)
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)
        with vs.variable_scope("bw") as bw_scope:
            inputs_reverse = nest.map_structure(
                lambda inp: _reverse(inp, seq_lengths=sequence_length, seq_axis=time_axis,
                                     batch_axis=batch_axis), inputs)
            tmp, output_state_bw = dynamic_rnn(
                cell=cell_bw, inputs=inputs_reverse, sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=bw_scope)
    output_bw = _reverse(tmp, seq_lengths=sequence_length, seq_axis=time_axis,
                         batch_axis=batch_axis)
    return (output_fw, output_bw), (output_state_fw, output_state_bw)


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """The cell applied to each input of a Python list in turn (tf.compat.v1.nn.static_rnn).

    Args:
      cell: an RNNCell. inputs: a non-empty list of [batch, input_size] tensors (or
        nested structures of them). initial_state / dtype: as dynamic_rnn's.
      sequence_length: [batch] lengths; each step is then a tf.cond that skips finished
        steps and copies states through. scope: the variable scope (default "rnn").
    Returns: (outputs, state): the list of step outputs and the final state.
    Raises: TypeError when inputs is not a sequence; ValueError when it is empty, input
      sizes are unknown, or neither initial_state nor dtype is given.
    """
    assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    outputs = []
    with vs.variable_scope(scope or "rnn") as varscope:
        _set_caching(varscope)
        first_input = inputs
        while nest.is_nested(first_input):
            first_input = first_input[0]
        if first_input.shape.ndims != 1:
            input_shape = first_input.shape.with_rank_at_least(2)
            fixed_batch_size = input_shape.dims[0]
            for flat_input in nest.flatten(inputs):
                input_shape = flat_input.shape.with_rank_at_least(2)
                batch_size, input_size = input_shape.dims[0], input_shape[1:]
                fixed_batch_size.assert_is_compatible_with(batch_size)
                for i, size in enumerate(input_size.dims):
                    if tensor_shape.dimension_value(size) is None:
                        raise ValueError("Input size (dimension %d of inputs) must be accessible "
                                         "via shape inference, but saw value None." % i)
        else:
            fixed_batch_size = first_input.shape.with_rank_at_least(1)[0]
        if tensor_shape.dimension_value(fixed_batch_size):
            batch_size = tensor_shape.dimension_value(fixed_batch_size)
        else:
            batch_size = array_ops.shape(first_input)[0]
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If no initial_state is provided, dtype must be specified")
            state = cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
        if sequence_length is not None:
            sequence_length = ops.convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("sequence_length must be a vector of length batch_size")

            def _create_zero_output(output_size):
                output = array_ops.zeros(array_ops.stack(_concat(batch_size, output_size)),
                                         _infer_state_dtype(dtype, state))
                output.set_shape(tensor_shape.TensorShape(_concat(
                    tensor_shape.dimension_value(fixed_batch_size), output_size, static=True)))
                return output
            flat_zero_output = tuple(_create_zero_output(s)
                                     for s in nest.flatten(cell.output_size))
            zero_output = nest.pack_sequence_as(cell.output_size, flat_zero_output)
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            min_sequence_length = reduction_ops.reduce_min(sequence_length)
            max_sequence_length = reduction_ops.reduce_max(sequence_length)
        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()

            def call_cell(input_=input_, state=state):
                return cell(input_, state)
            if sequence_length is not None:
                output, state = _rnn_step(
                    time=time, sequence_length=sequence_length,
                    min_sequence_length=min_sequence_length,
                    max_sequence_length=max_sequence_length, zero_output=zero_output,
                    state=state, call_cell=call_cell, state_size=cell.state_size)
            else:
                output, state = call_cell()
            outputs.append(output)
        return outputs, state


def _reverse_seq(input_seq, lengths):
    """The list reversed, or with lengths each sequence reversed within its length."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_input_seq = tuple(nest.flatten(x) for x in input_seq)
    flat_results = [[] for _ in range(len(input_seq))]
    for sequence in zip(*flat_input_seq):
        input_shape = tensor_shape.unknown_shape(rank=sequence[0].shape.ndims)
        for input_ in sequence:
            input_shape.assert_is_compatible_with(input_.shape)
            input_.set_shape(input_shape)
        s_joined = array_ops.stack(sequence)
        s_reversed = array_ops.reverse_sequence(s_joined, lengths, 0, 1)
        result = array_ops.unstack(s_reversed)
        for r, flat_result in zip(result, flat_results):
            r.set_shape(input_shape)
            flat_result.append(r)
    return [nest.pack_sequence_as(x, r) for x, r in zip(input_seq, flat_results)]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
    """static_rnn forward ("<scope>/fw") and over the reversed list backward ("<scope>/bw"),
    the outputs of each step concatenated along axis 1
    (tf.compat.v1.nn.static_bidirectional_rnn; scope defaults to "bidirectional_rnn").

    Returns: (outputs, output_state_fw, output_state_bw). Errors as static_rnn's.
    """
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                                    sequence_length, scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_inputs = _reverse_seq(inputs, sequence_length)
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw,
                                              dtype, sequence_length, scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat_outputs = tuple(array_ops.concat([fw, bw], 1)
                         for fw, bw in zip(nest.flatten(output_fw), nest.flatten(output_bw)))
    return nest.pack_sequence_as(output_fw, flat_outputs), output_state_fw, output_state_bw
