"""TF1 queue-based input pipelines (TensorFlow 2.21's training/input.py): match_filenames_once,
limit_epochs, input_producer, string_input_producer, range_input_producer,
slice_input_producer, batch, batch_join, shuffle_batch, shuffle_batch_join and their maybe_*
forms. Each builds TensorFlow's nodes and names (`input_producer/RandomShuffle`,
`input_producer/limit_epochs/epochs`, `shuffle_batch/random_shuffle_queue`, the
`fraction_of_N_full` summaries) and adds a QueueRunner to the QUEUE_RUNNERS collection.

One difference: SparseTensor inputs to the batch functions are refused with a TypeError
(TensorFlow stores them in a SparseTensorsMap, which minitf does not have).
"""
from minitf import summary
from minitf.framework import dtypes, ops, sparse_tensor, tensor_shape
from minitf.framework.constant_op import constant
from minitf.ops import array_ops, control_flow_ops, data_flow_ops, indexing_ops, logging_ops
from minitf.ops import math_ops
from minitf.ops import parsing_ops, random_ops, variables
from minitf.training import queue_runner_impl as queue_runner


def match_filenames_once(pattern, name=None):
    """A local variable (named `matching_filenames`) holding the files that match `pattern`
    (a glob, or a list of globs), computed once when local variables are initialized.

    Returns: the string Variable (validate_shape=False, LOCAL_VARIABLES).
    """
    with ops.name_scope(name, "matching_filenames", [pattern]) as name:
        return variables.Variable(
            name=name, initial_value=parsing_ops.matching_files(pattern), trainable=False,
            validate_shape=False, collections=[ops.GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor, num_epochs=None, name=None):
    """Returns `tensor` num_epochs times, then OutOfRangeError: an Identity with a control
    dependency on CountUpTo of a local int64 variable `limit_epochs/epochs`.

    Raises: ValueError when num_epochs <= 0.
    """
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
    with ops.name_scope(name, "limit_epochs", [tensor]) as name:
        zero64 = constant(0, dtype=dtypes.int64)
        epochs = variables.Variable(zero64, name="epochs", trainable=False,
                                    collections=[ops.GraphKeys.LOCAL_VARIABLES])
        counter = epochs.count_up_to(num_epochs)
        with ops.control_dependencies([counter]):
            return array_ops.identity(tensor, name=name)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None,
                   capacity=32, shared_name=None, summary_name=None, name=None,
                   cancel_op=None):
    """A FIFOQueue fed with the rows of `input_tensor` (shuffled each epoch with
    RandomShuffle when `shuffle`) by a QueueRunner, num_epochs times (None: forever).

    Returns: the FIFOQueue. Raises: ValueError when the element shape is not fully defined.
    """
    with ops.name_scope(name, "input_producer", [input_tensor]):
        input_tensor = ops.convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(element_shape)
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_ops.random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = data_flow_ops.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                                    shapes=[element_shape], shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        queue_runner.add_queue_runner(queue_runner.QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            summary.scalar(summary_name,
                           math_ops.cast(q.size(), dtypes.float32) * (1.0 / capacity))
        return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32,
                          shared_name=None, name=None, cancel_op=None):
    """input_producer over a 1-D string tensor (file names), with an Assert that it is not
    empty. Returns: the FIFOQueue of strings. Raises: ValueError for an empty Python list."""
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, ops.Tensor) and not string_tensor:
        raise ValueError(not_null_err)
    with ops.name_scope(name, "input_producer", [string_tensor]) as name:
        string_tensor = ops.convert_to_tensor(string_tensor, dtype=dtypes.string)
        with ops.control_dependencies([logging_ops.Assert(
                math_ops.greater(array_ops.size(string_tensor), 0), [not_null_err])]):
            string_tensor = array_ops.identity(string_tensor)
        return input_producer(input_tensor=string_tensor, element_shape=[],
                              num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                              capacity=capacity, shared_name=shared_name, name=name,
                              summary_name="fraction_of_%d_full" % capacity,
                              cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """input_producer over the integers 0 .. limit - 1 (int32). Returns: the FIFOQueue."""
    with ops.name_scope(name, "input_producer", [limit]) as name:
        range_tensor = array_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, "fraction_of_%d_full" % capacity, name)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """One row of every tensor of `tensor_list` per dequeue, through a range_input_producer
    of row indices. Returns: the list of gathered tensors. Raises: ValueError when the list
    is empty."""
    with ops.name_scope(name, "input_producer", tensor_list):
        tensor_list = ops.convert_n_to_tensor(tensor_list)
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [indexing_ops.gather(t, index) for t in tensor_list]


def _as_tensor_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    return tensors


def _as_tensor_list_list(tensors_list):
    if not tensors_list:
        raise ValueError("Expected at least one set of tensors")
    if isinstance(tensors_list[0], dict):
        expected_keys = set(tensors_list[0].keys())
        for tensors in tensors_list[1:]:
            if set(tensors.keys()) != expected_keys:
                raise ValueError("All dictionaries in tensors_list must have the same keys")
        return [_as_tensor_list(tensors) for tensors in tensors_list]
    return tensors_list


def _as_original_type(original_tensors, tensor_list):
    if isinstance(original_tensors, dict):
        if len(original_tensors) == 1:
            tensor_list = [tensor_list]
        return {k: tensor_list[i] for i, k in enumerate(sorted(original_tensors, key=str))}
    return tensor_list


def _convert(tensor_list):
    for t in tensor_list:
        if isinstance(t, sparse_tensor.SparseTensor):
            raise TypeError("minitf's batch functions do not take SparseTensor inputs yet: %s"
                            % (t,))
    return ops.convert_n_to_tensor(list(tensor_list))


def _validate(tensor_list):
    tensor_list = _convert(tensor_list)
    if not tensor_list:
        raise ValueError("Expected at least one tensor in batch().")
    return tensor_list


def _validate_join(tensor_list_list):
    tensor_list_list = [_convert(tl) for tl in tensor_list_list]
    if not tensor_list_list:
        raise ValueError("Expected at least one input in batch_join().")
    return tensor_list_list


def _validate_keep_input(keep_input, enqueue_many):
    keep_input = ops.convert_to_tensor(keep_input)
    if keep_input.shape.ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and keep_input.shape.ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if keep_input.shape.ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _dtypes(tensor_list_list):
    all_types = [[t.dtype for t in tl] for tl in tensor_list_list]
    types = all_types[0]
    for other_types in all_types[1:]:
        if other_types != types:
            raise TypeError("Expected types to be consistent: %s vs. %s." % (
                ", ".join(x.name for x in types), ", ".join(x.name for x in other_types)))
    return types


def _merge_shapes(shape_list, enqueue_many):
    shape_list = [tensor_shape.as_shape(s) for s in shape_list]
    if enqueue_many:
        shape_list = [s.with_rank_at_least(1)[1:] for s in shape_list]
    merged_shape = shape_list[0]
    for s in shape_list[1:]:
        merged_shape.merge_with(s)
    return merged_shape.as_list()


def _shapes(tensor_list_list, shapes, enqueue_many):
    if shapes is None:
        len0 = len(tensor_list_list[0])
        for tl in tensor_list_list:
            for i in range(len0):
                if tl[i].shape.ndims is None:
                    raise ValueError("Cannot infer Tensor's rank: %s" % tl[i])
        shapes = [_merge_shapes([tl[i].shape.as_list() for tl in tensor_list_list],
                                enqueue_many) for i in range(len0)]
    return shapes


def _select_which_to_enqueue(tensor_list, keep_input):
    select_i = math_ops.cast(keep_input, dtypes.int32)
    return [array_ops.dynamic_partition(x, select_i, num_partitions=2)[1] for x in tensor_list]


def _enqueue_fns(queue, enqueue_many, keep_input):
    enqueue_fn = queue.enqueue_many if enqueue_many else queue.enqueue

    def make(tl):
        if keep_input.shape.ndims == 1:
            return enqueue_fn(_select_which_to_enqueue(tl, keep_input))
        from minitf.layers.utils import smart_cond
        return smart_cond(keep_input, lambda: enqueue_fn(tl), control_flow_ops.no_op)
    return make


def _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input):
    make = _enqueue_fns(queue, enqueue_many, keep_input)
    enqueue_ops = [make(tl) for tl in tensor_list_list]
    queue_runner.add_queue_runner(queue_runner.QueueRunner(queue, enqueue_ops))


def _enqueue(queue, tensor_list, threads, enqueue_many, keep_input):
    enqueue_ops = [_enqueue_fns(queue, enqueue_many, keep_input)(tensor_list)] * threads
    queue_runner.add_queue_runner(queue_runner.QueueRunner(queue, enqueue_ops))


def _dequeue(queue, batch_size, allow_smaller_final_batch, name):
    if allow_smaller_final_batch:
        return queue.dequeue_up_to(batch_size, name=name)
    return queue.dequeue_many(batch_size, name=name)


def _batch(tensors, batch_size, keep_input, num_threads=1, capacity=32, enqueue_many=False,
           shapes=None, dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
           name=None):
    tensor_list = _as_tensor_list(tensors)
    with ops.name_scope(name, "batch", list(tensor_list) + [keep_input]) as name:
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _dtypes([tensor_list])
        shapes = _shapes([tensor_list], shapes, enqueue_many)
        queue_cls = data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue
        queue = queue_cls(capacity=capacity, dtypes=types, shapes=shapes,
                          shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        summary.scalar("fraction_of_%d_full" % capacity,
                       math_ops.cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors, dequeued)


def _batch_join(tensors_list, batch_size, keep_input, capacity=32, enqueue_many=False,
                shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                shared_name=None, name=None):
    tensor_list_list = _as_tensor_list_list(tensors_list)
    flat = [t for tl in tensor_list_list for t in tl]
    with ops.name_scope(name, "batch_join", flat + [keep_input]) as name:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _dtypes(tensor_list_list)
        shapes = _shapes(tensor_list_list, shapes, enqueue_many)
        queue_cls = data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue
        queue = queue_cls(capacity=capacity, dtypes=types, shapes=shapes,
                          shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        summary.scalar("fraction_of_%d_full" % capacity,
                       math_ops.cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors_list[0], dequeued)


def _shuffle_summary(queue, capacity, min_after_dequeue):
    full = math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue),
                         dtypes.float32) * (1.0 / (capacity - min_after_dequeue))
    summary.scalar("fraction_over_%d_of_%d_full" % (min_after_dequeue,
                                                     capacity - min_after_dequeue), full)


def _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1,
                   seed=None, enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                   shared_name=None, name=None):
    tensor_list = _as_tensor_list(tensors)
    with ops.name_scope(name, "shuffle_batch", list(tensor_list) + [keep_input]) as name:
        if capacity <= min_after_dequeue:
            raise ValueError("capacity %d must be bigger than min_after_dequeue %d." %
                             (capacity, min_after_dequeue))
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _dtypes([tensor_list])
        shapes = _shapes([tensor_list], shapes, enqueue_many)
        queue = data_flow_ops.RandomShuffleQueue(
            capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed, dtypes=types,
            shapes=shapes, shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        _shuffle_summary(queue, capacity, min_after_dequeue)
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors, dequeued)


def _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input,
                        seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
    tensor_list_list = _as_tensor_list_list(tensors_list)
    flat = [t for tl in tensor_list_list for t in tl]
    with ops.name_scope(name, "shuffle_batch_join", flat + [keep_input]) as name:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _dtypes(tensor_list_list)
        shapes = _shapes(tensor_list_list, shapes, enqueue_many)
        queue = data_flow_ops.RandomShuffleQueue(
            capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed, dtypes=types,
            shapes=shapes, shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        _shuffle_summary(queue, capacity, min_after_dequeue)
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors_list[0], dequeued)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
          dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches `tensors` (a list or dict) through a FIFOQueue (PaddingFIFOQueue with
    dynamic_pad) filled by `num_threads` QueueRunner threads; returns the dequeue_many
    (dequeue_up_to with allow_smaller_final_batch) tensors, each [batch_size] + its shape.

    Raises: ValueError for an empty list or tensors of unknown rank; TypeError for a
    SparseTensor. At run time OutOfRangeError once the input is exhausted."""
    return _batch(tensors, batch_size, keep_input=True, num_threads=num_threads,
                  capacity=capacity, enqueue_many=enqueue_many, shapes=shapes,
                  dynamic_pad=dynamic_pad, allow_smaller_final_batch=allow_smaller_final_batch,
                  shared_name=shared_name, name=name)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32,
                enqueue_many=False, shapes=None, dynamic_pad=False,
                allow_smaller_final_batch=False, shared_name=None, name=None):
    """batch() that enqueues only the elements whose `keep_input` (bool scalar, or vector
    with enqueue_many) is true."""
    return _batch(tensors, batch_size, keep_input, num_threads=num_threads, capacity=capacity,
                  enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                  allow_smaller_final_batch=allow_smaller_final_batch,
                  shared_name=shared_name, name=name)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None,
               dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
               name=None):
    """batch() of several lists of tensors (same dtypes), one enqueue thread per list."""
    return _batch_join(tensors_list, batch_size, keep_input=True, capacity=capacity,
                       enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                       allow_smaller_final_batch=allow_smaller_final_batch,
                       shared_name=shared_name, name=name)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False,
                     shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                     shared_name=None, name=None):
    """batch_join() that enqueues only where `keep_input` is true."""
    return _batch_join(tensors_list, batch_size, keep_input, capacity=capacity,
                       enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                       allow_smaller_final_batch=allow_smaller_final_batch,
                       shared_name=shared_name, name=name)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None,
                  enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                  shared_name=None, name=None):
    """Batches `tensors` in a random order through a RandomShuffleQueue (`capacity`,
    `min_after_dequeue`, `seed`). Raises: ValueError when capacity <= min_after_dequeue."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input=True,
                          num_threads=num_threads, seed=seed, enqueue_many=enqueue_many,
                          shapes=shapes, allow_smaller_final_batch=allow_smaller_final_batch,
                          shared_name=shared_name, name=name)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                        num_threads=1, seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
    """shuffle_batch() that enqueues only where `keep_input` is true."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                          num_threads=num_threads, seed=seed, enqueue_many=enqueue_many,
                          shapes=shapes, allow_smaller_final_batch=allow_smaller_final_batch,
                          shared_name=shared_name, name=name)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None,
                       enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                       shared_name=None, name=None):
    """shuffle_batch() of several lists of tensors, one enqueue thread per list."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue,
                               keep_input=True, seed=seed, enqueue_many=enqueue_many,
                               shapes=shapes, allow_smaller_final_batch=allow_smaller_final_batch,
                               shared_name=shared_name, name=name)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input,
                             seed=None, enqueue_many=False, shapes=None,
                             allow_smaller_final_batch=False, shared_name=None, name=None):
    """shuffle_batch_join() that enqueues only where `keep_input` is true."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue,
                               keep_input, seed=seed, enqueue_many=enqueue_many, shapes=shapes,
                               allow_smaller_final_batch=allow_smaller_final_batch,
                               shared_name=shared_name, name=name)
