"""Graph-level random seeds (tf.compat.v1.set_random_seed, get_seed)."""
from minitf.framework import ops

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


def set_random_seed(seed):
    """Sets the graph-level seed of the default graph (tf.compat.v1.set_random_seed).

    Ops with random outputs created afterwards derive their seeds from it; it
    is readable as `tf.get_default_graph().seed`.
    """
    ops.get_default_graph().seed = seed


def get_seed(op_seed):
    """(graph seed, op seed) for a random op, as TensorFlow derives them.

    Neither seed set: (None, None). Only op_seed: (DEFAULT_GRAPH_SEED,
    op_seed). A graph seed without op_seed: the op seed is the graph's last
    op id. The pair (0, 0) becomes (0, 2**31-1), since kernels read (0, 0)
    as "pick a nondeterministic seed".
    """
    graph_seed = ops.get_default_graph().seed
    if graph_seed is not None:
        if op_seed is None:
            op_seed = ops.get_default_graph()._last_id
        seeds = (int(graph_seed), int(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed))
    else:
        seeds = (None, None)
    if seeds == (0, 0):
        return (0, _MAXINT32)
    return seeds
