"""Queues: tf.queue.QueueBase, FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue
(TensorFlow 2.21's data_flow_ops.py, graph mode, over the V2 resource ops of
runtime/kernels/queue_ops.c).

A queue is a session resource made by its queue op (`fifo_queue`, ...); the methods build the
access ops with TensorFlow's node names (`fifo_queue_enqueue`, `fifo_queue_Dequeue`,
`fifo_queue_DequeueMany`, `fifo_queue_Close`, `fifo_queue_Size`, ...).

Errors: at construction ValueError/TypeError in TensorFlow's words (shapes not fully defined,
names of the wrong length, an enqueued value of an incompatible static shape); at run time
OutOfRangeError when a closed queue has too few elements, CancelledError for an enqueue into a
closed queue or a blocked op cancelled by `close(cancel_pending_enqueues=True)` or by closing
the session, DeadlineExceededError past `RunOptions.timeout_in_ms`, InvalidArgumentError for
elements of the wrong dtype or shape.
"""
import hashlib

from minitf.framework import dtypes as _dtypes
from minitf.framework import ops, random_seed, tensor_shape, tensor_util
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _as_type_list(dtypes):
    if not isinstance(dtypes, (list, tuple)):
        return [dtypes]
    return list(dtypes)


def _as_shape_list(shapes, dtypes, unknown_dim_allowed=False, unknown_rank_allowed=False):
    """TensorFlow's list of TensorShapes from `shapes` (None stays None)."""
    del dtypes
    if unknown_dim_allowed:
        if (not isinstance(shapes, (list, tuple)) or not shapes or
                any(shape is None or isinstance(shape, int) for shape in shapes)):
            raise ValueError("When providing partial shapes, a list of shapes must be provided.")
    if shapes is None:
        return None
    if isinstance(shapes, tensor_shape.TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (tuple, list)):
        raise TypeError("Shapes must be a TensorShape or a list or tuple of TensorShapes, "
                        f"got {type(shapes)} instead.")
    if all(shape is None or isinstance(shape, int) for shape in shapes):
        shapes = [shapes]  # one shape given as a list of dims
    shapes = [tensor_shape.as_shape(shape) for shape in shapes]
    if not unknown_dim_allowed and any(not s.is_fully_defined() for s in shapes):
        raise ValueError(f"All shapes must be fully defined: {shapes}")
    if not unknown_rank_allowed and any(s.dims is None for s in shapes):
        raise ValueError(f"All shapes must have a defined rank: {shapes}")
    return shapes


def _as_name_list(names, dtypes):
    if names is None:
        return None
    if not isinstance(names, (list, tuple)):
        names = [names]
    if len(names) != len(dtypes):
        raise ValueError("List of names must have the same length as the list of dtypes, "
                         f"received len(names)={len(names)},len(dtypes)={len(dtypes)}")
    return list(names)


def _shape_attr(shapes):
    return [] if shapes is None else [s.as_proto() for s in shapes]


class QueueBase:
    """Base class of the queues (tf.queue.QueueBase / tf.QueueBase / tf.io.QueueBase).

    Args:
      dtypes: list of DTypes, one per component of an element.
      shapes: None, or one TensorShape per component (the static shapes of dequeued values).
      names: None, or one name per component (then elements are dicts).
      queue_ref: the resource handle the queue op made.

    Raises:
      ValueError: shapes or names not as long as dtypes.
    """

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = dtypes
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes, "
                                 f"received len(shapes)={len(shapes)}, "
                                 f"len(dtypes)={len(dtypes)}")
            self._shapes = [tensor_shape.TensorShape(s) for s in shapes]
        else:
            self._shapes = [tensor_shape.unknown_shape() for _ in self._dtypes]
        if names is not None:
            if len(names) != len(dtypes):
                raise ValueError("Queue names must have the same length as dtypes,"
                                 f"received len(names)={len(names)},len {len(dtypes)}")
            self._names = names
        else:
            self._names = None
        self._queue_ref = queue_ref
        self._name = self._queue_ref.op.name.split("/")[-1]

    @staticmethod
    def from_list(index, queues):
        """A queue that uses the handle of `queues[index]` (an int32 scalar tensor picks it at
        run time); all queues must have the same dtypes (and names).

        Raises:
          TypeError: `queues` not a non-empty list of QueueBase. ValueError: dtypes or names
          differ between the queues.
        """
        if ((not queues) or (not isinstance(queues, list)) or
                (not all(isinstance(x, QueueBase) for x in queues))):
            raise TypeError("A list of queues expected")
        dtypes = queues[0].dtypes
        if not all(dtypes == q.dtypes for q in queues[1:]):
            raise TypeError("Queues do not have matching component dtypes.")
        names = queues[0].names
        if not all(names == q.names for q in queues[1:]):
            raise TypeError("Queues do not have matching component names.")
        queue_shapes = [q.shapes for q in queues]
        reduced_shapes = [
            _shape_common_list([s[i] for s in queue_shapes]) for i in range(len(dtypes))]
        from minitf.ops import array_ops, indexing_ops
        queue_refs = array_ops.stack([x.queue_ref for x in queues])
        selected_queue = indexing_ops.gather(queue_refs, index)
        return QueueBase(dtypes=dtypes, shapes=reduced_shapes, names=names,
                         queue_ref=selected_queue)

    @property
    def queue_ref(self):
        """The underlying queue reference (a resource tensor)."""
        return self._queue_ref

    @property
    def name(self):
        """The name of the underlying queue (its op's last name component)."""
        return self._queue_ref.op.name

    @property
    def dtypes(self):
        """The list of dtypes for each component of a queue element."""
        return self._dtypes

    @property
    def shapes(self):
        """The list of shapes for each component of a queue element."""
        return self._shapes

    @property
    def names(self):
        """The list of names for each component of a queue element (or None)."""
        return self._names

    def _check_enqueue_dtypes(self, vals):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  "
                                 f"Dictionary: {sorted(vals.keys())},"
                                 f"Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if not isinstance(vals, (list, tuple)):
                vals = [vals]
        return [ops.convert_to_tensor(val, dtype=dtype, name="component_%d" % i)
                for i, (val, dtype) in enumerate(zip(vals, self._dtypes))]

    @staticmethod
    def _scope_vals(vals):
        if isinstance(vals, (list, tuple)):
            return vals
        if isinstance(vals, dict):
            return list(vals.values())
        return [vals]

    def enqueue(self, vals, name=None):
        """Enqueues one element (QueueEnqueueV2, named `<queue>_enqueue`).

        Blocks while the queue is full. Args: vals: a tensor, a list/tuple of tensors, or a
        dict (for a queue with names), one value per component. Returns: the Operation.
        Raises: ValueError when a value's static shape is incompatible; at run time
        CancelledError when the queue is (or gets) closed with pending enqueues cancelled.
        """
        with ops.name_scope(name, "%s_enqueue" % self._name, self._scope_vals(vals)) as scope:
            vals = self._check_enqueue_dtypes(vals)
            for val, shape in zip(vals, self._shapes):
                val.get_shape().assert_is_compatible_with(shape)
            return _op("QueueEnqueueV2", name=scope, handle=self._queue_ref, components=vals)

    def enqueue_many(self, vals, name=None):
        """Enqueues the slices along dimension 0 of each component (QueueEnqueueManyV2, named
        `<queue>_EnqueueMany`). All components must have the same size in dimension 0.

        Returns: the Operation. Raises: ValueError for ranks < 1, different batch sizes or
        incompatible element shapes known at construction.
        """
        with ops.name_scope(name, "%s_EnqueueMany" % self._name,
                            self._scope_vals(vals)) as scope:
            vals = self._check_enqueue_dtypes(vals)
            batch_dim = tensor_shape.dimension_value(
                vals[0].get_shape().with_rank_at_least(1)[0])
            batch_dim = tensor_shape.Dimension(batch_dim)
            for val, shape in zip(vals, self._shapes):
                val_batch_dim = tensor_shape.dimension_value(
                    val.get_shape().with_rank_at_least(1)[0])
                batch_dim = batch_dim.merge_with(tensor_shape.Dimension(val_batch_dim))
                val.get_shape()[1:].assert_is_compatible_with(shape)
            return _op("QueueEnqueueManyV2", name=scope, handle=self._queue_ref,
                       components=vals)

    def _dequeue_return_value(self, tensors):
        if self._names:
            return {n: tensors[i] for i, n in enumerate(self._names)}
        if len(tensors) == 1:
            return tensors[0]
        return tensors

    def _outputs(self, op_type, name, shape_of, **inputs):
        op = apply_op(op_type, name=name, handle=self._queue_ref,
                      component_types=self._dtypes, **inputs)
        ret = list(op.outputs)
        for output, shape in zip(ret, self._shapes):
            output.set_shape(shape_of(op, shape))
        return self._dequeue_return_value(ret)

    def dequeue(self, name=None):
        """Dequeues one element (QueueDequeueV2, named `<queue>_Dequeue`).

        Blocks while the queue is empty. Returns: a tensor, a list of tensors, or a dict (queue
        with names), of the queue's dtypes and shapes. Raises at run time: OutOfRangeError when
        the queue is closed and empty, CancelledError when the session closes,
        DeadlineExceededError past RunOptions.timeout_in_ms.
        """
        if name is None:
            name = "%s_Dequeue" % self._name
        return self._outputs("QueueDequeueV2", name, lambda op, shape: shape)

    def dequeue_many(self, n, name=None):
        """Dequeues `n` elements concatenated along a new dimension 0 (QueueDequeueManyV2,
        named `<queue>_DequeueMany`); each component has shape [n] + its shape.

        Raises at run time: OutOfRangeError when the queue is closed with fewer than `n`
        elements, InvalidArgumentError when the queue's shapes are not specified.
        """
        if name is None:
            name = "%s_DequeueMany" % self._name

        def shape_of(op, shape):
            batch_dim = tensor_shape.Dimension(tensor_util.constant_value(op.inputs[1]))
            return tensor_shape.TensorShape([batch_dim]).concatenate(shape)
        return self._outputs("QueueDequeueManyV2", name, shape_of, n=n)

    def dequeue_up_to(self, n, name=None):
        """As dequeue_many, but a closed queue with 0 < k < n elements gives those k
        (QueueDequeueUpToV2, named `<queue>_DequeueUpTo`; dimension 0 is None).

        Raises at run time: OutOfRangeError when the queue is closed and empty.
        """
        if name is None:
            name = "%s_DequeueUpTo" % self._name
        return self._outputs(
            "QueueDequeueUpToV2", name,
            lambda op, shape: tensor_shape.TensorShape([None]).concatenate(shape), n=n)

    def close(self, cancel_pending_enqueues=False, name=None):
        """Closes the queue (QueueCloseV2, named `<queue>_Close`): later enqueues fail, and
        dequeues fail once too few elements remain. With cancel_pending_enqueues, blocked
        enqueues fail at once with CancelledError. Returns: the Operation."""
        if name is None:
            name = "%s_Close" % self._name
        return _op("QueueCloseV2", name=name, handle=self._queue_ref,
                   cancel_pending_enqueues=cancel_pending_enqueues)

    def is_closed(self, name=None):
        """A scalar bool tensor: whether the queue is closed (QueueIsClosedV2,
        `<queue>_Is_Closed`)."""
        if name is None:
            name = "%s_Is_Closed" % self._name
        return _op("QueueIsClosedV2", name=name, handle=self._queue_ref)

    def size(self, name=None):
        """A scalar int32 tensor: the number of elements in the queue (QueueSizeV2,
        `<queue>_Size`)."""
        if name is None:
            name = "%s_Size" % self._name
        return _op("QueueSizeV2", name=name, handle=self._queue_ref)


def _shape_common(s1, s2):
    s1 = tensor_shape.TensorShape(s1)
    s2 = tensor_shape.TensorShape(s2)
    if s1.ndims is None or s2.ndims is None or s1.ndims != s2.ndims:
        return tensor_shape.unknown_shape()
    d = [d1 if d1 is not None and d1 == d2 else None
         for (d1, d2) in zip(s1.as_list(), s2.as_list())]
    return tensor_shape.TensorShape(d)


def _shape_common_list(shapes):
    out = shapes[0]
    for s in shapes[1:]:
        out = _shape_common(out, s)
    return out


def _queue_op(op_type, name, dtypes, shapes, capacity, shared_name, **attrs):
    return _op(op_type, name=name, component_types=dtypes, shapes=_shape_attr(shapes),
               capacity=capacity, shared_name=shared_name or "", **attrs)


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues its elements in a random order (RandomShuffleQueueV2).

    Args:
      capacity: the most elements it holds. min_after_dequeue: a dequeue waits until more
        than this many elements are in the queue (ignored once it is closed).
      dtypes, shapes, names: as QueueBase (shapes must be fully defined).
      seed: op seed; with the graph seed it gives the op's (seed, seed2) as
        tf.compat.v1.get_seed does (a shared_name without seed derives seed2 from an md5 of
        the graph seed and the name, as TensorFlow). The order of dequeued elements equals
        TensorFlow's for the same seeds and the same sequence of enqueues and dequeues.
      shared_name: share the queue between sessions' nodes under this name.
      name: op name, "random_shuffle_queue".
    """

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
                 shared_name=None, name="random_shuffle_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        seed1, seed2 = random_seed.get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            string = (str(seed1) + shared_name).encode("utf-8")
            seed2 = int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF
        queue_ref = _queue_op("RandomShuffleQueueV2", name, dtypes, shapes, capacity,
                              shared_name, min_after_dequeue=min_after_dequeue, seed=seed1,
                              seed2=seed2)
        super().__init__(dtypes, shapes, names, queue_ref)


class FIFOQueue(QueueBase):
    """A queue that dequeues its elements in first-in first-out order (FIFOQueueV2).

    Args: capacity (int, the most elements held), dtypes, shapes (None or fully defined),
    names, shared_name, name ("fifo_queue"). Raises: ValueError for shapes that are not fully
    defined or names of the wrong length.
    """

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        queue_ref = _queue_op("FIFOQueueV2", name, dtypes, shapes, capacity, shared_name)
        super().__init__(dtypes, shapes, names, queue_ref)


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose dequeue_many pads variable-sized components (PaddingFIFOQueueV2).

    `shapes` is required; dims may be None: dequeue_many pads each such dim with zeros (empty
    strings) to the largest in the batch. Raises: ValueError when shapes are missing or fewer
    than dtypes.
    """

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
                 name="padding_fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes, unknown_dim_allowed=True)
        names = _as_name_list(names, dtypes)
        if len(dtypes) != len(shapes):
            raise ValueError("Shapes must be provided for all components, but received "
                             f"{len(dtypes)} dtypes and {len(shapes)} shapes.")
        queue_ref = _queue_op("PaddingFIFOQueueV2", name, dtypes, shapes, capacity, shared_name)
        super().__init__(dtypes, shapes, names, queue_ref)


class PriorityQueue(QueueBase):
    """A queue that dequeues the element of lowest priority first (PriorityQueueV2).

    Each element's first component is its int64 scalar priority (not in `types`); ties come
    out in TensorFlow's order (a std::priority_queue heap). Args: capacity, types, shapes
    (None or fully defined, for the other components), names, shared_name, name
    ("priority_queue").
    """

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
                 name="priority_queue"):
        types = _as_type_list(types)
        shapes = _as_shape_list(shapes, types)
        queue_ref = _queue_op("PriorityQueueV2", name, types, shapes, capacity, shared_name)
        priority_dtypes = [_dtypes.int64] + types
        priority_shapes = [()] + shapes if shapes else shapes
        super().__init__(priority_dtypes, priority_shapes, names, queue_ref)
