"""tf.nn.embedding_lookup (TensorFlow's ops/embedding_ops.py, graph mode): rows of one
embedding tensor, or of one split over a list of tensors / a PartitionedVariable, with
TensorFlow's nodes (FloorMod/FloorDiv or the "div" arithmetic, DynamicPartition, one Gather
per part colocated with it, ParallelDynamicStitch, the final Reshape)."""
from minitf.framework import constant_op, dtypes, ops, tensor_shape
from minitf.ops import array_ops, clip_ops, indexing_ops, math_ops, variables
from minitf.ops.partitioned_variables import PartitionedVariable


def _clip(params, ids, max_norm):
    """params with each embedding (the dims past ids' rank) clipped to L2 norm max_norm."""
    if max_norm is None:
        return params
    ids_rank, params_rank = ids.shape.ndims, params.shape.ndims
    if ids_rank is not None and params_rank is not None:
        axes = list(range(ids_rank, params_rank))
    else:
        axes = array_ops.range(array_ops.rank(ids), array_ops.rank(params))
    return clip_ops.clip_by_norm(params, max_norm, axes=axes)


def _div_assignments(flat_ids, params, np_):
    """p_assignments, new_ids of the "div" strategy: the first `extras` parts hold one id
    more than the others."""
    dim0 = tensor_shape.Dimension(params[0].get_shape().as_list()[0]
                                  if params[0].get_shape().ndims else None)
    for p in params[1:]:
        dim0 += tensor_shape.Dimension(p.get_shape().as_list()[0]
                                       if p.get_shape().ndims else None)
    if dim0.value:
        total = constant_op.constant(dim0.value, flat_ids.dtype)
    else:
        sizes = []
        for p in params:
            with ops.colocate_with(p):
                sizes.append(array_ops.shape(p)[0])
        total = math_ops.cast(array_ops.stack(sizes), flat_ids.dtype)
        total = math_ops.reduce_sum(total)
    per = total // np_
    extras = total % np_
    assign = math_ops.maximum(flat_ids // (per + 1), (flat_ids - extras) // per)
    new_ids = math_ops.where(assign < extras, flat_ids % (per + 1),
                              (flat_ids - extras) % per)
    return assign, new_ids


def _is_resource(p):
    return isinstance(p, variables.ResourceVariable)


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """The rows `ids` of `params` (tf.compat.v1.nn.embedding_lookup).

    params: a tensor or variable [vocab, d...], a list of them split along dim 0, or a
      PartitionedVariable. With several, id i lives in part i % n at row i // n ("mod") or
      in contiguous blocks, the first ones one row longer ("div").
    ids: int32/int64 tensor of any shape. Returns params' dtype, shape ids.shape + d...
    max_norm: clip each looked-up embedding to this L2 norm.
    The gradient for each part is an IndexedSlices (ResourceGather / Gather gradients).
    Raises ValueError for no params or an unknown partition_strategy; an id out of range
    is InvalidArgumentError at run time.
    """
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    if isinstance(params, PartitionedVariable):
        params = list(params)
    if not isinstance(params, list):
        params = [params]
    with ops.name_scope(name, "embedding_lookup", params + [ids]) as name:
        np_ = len(params)
        if not any(_is_resource(p) for p in params):
            params = [ops.convert_to_tensor(p, name="params" if i == 0 else "params_%d" % i)
                      for i, p in enumerate(params)]
        ids = ops.convert_to_tensor(ids, name="ids")
        if np_ == 1:
            with ops.colocate_with(params[0]):
                result = _clip(indexing_ops.gather(params[0], ids, name=name), ids, max_norm)
            return array_ops.identity(result)
        flat_ids = array_ops.reshape(ids, [-1])
        original_indices = array_ops.range(array_ops.size(flat_ids))
        if partition_strategy == "mod":
            assign = flat_ids % np_
            new_ids = flat_ids // np_
        elif partition_strategy == "div":
            assign, new_ids = _div_assignments(flat_ids, params, np_)
        else:
            raise ValueError("Unrecognized partition strategy: %s. Must be one of either "
                             "`mod` or `div`." % partition_strategy)
        assign = math_ops.cast(assign, dtypes.int32)
        gather_ids = array_ops.dynamic_partition(new_ids, assign, np_)
        pindices = array_ops.dynamic_partition(original_indices, assign, np_)
        parts = []
        for p in range(np_):
            with ops.device(None), ops.colocate_with(params[p]):
                parts.append(indexing_ops.gather(params[p], gather_ids[p]))
        ret = array_ops.parallel_dynamic_stitch(pindices, parts, name=name)
        element_s = params[0].get_shape()[1:]
        for p in params[1:]:
            element_s = element_s.merge_with(p.get_shape()[1:])
        if element_s.is_fully_defined():
            element_d = element_s.as_list()
        else:
            with ops.colocate_with(params[0]):
                element_d = array_ops.shape(params[0])[1:]
        ret = array_ops.reshape(ret, array_ops.concat([array_ops.shape(ids), element_d], 0))
        ret.set_shape(ids.get_shape().concatenate(element_s))
        return _clip(ret, ids, max_norm)
