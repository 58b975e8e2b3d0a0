"""Graph-level random seeds (tf.compat.v1.set_random_seed, tf.compat.v1.get_seed).

The rules are TensorFlow 2.21's (tensorflow/python/framework/random_seed.py): with a
graph seed and no op seed, op seeds come from a per-graph counter (0, 1, 2, ... for the
successive random ops that ask), so a TF1 program that sets the same graph seed and
creates the same random ops in the same order gets the same numbers as TensorFlow.
"""
import weakref

from minitf.framework import ops

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1

# Per graph: the next op seed handed out when only the graph seed is set.
_graph_to_seed_dict = weakref.WeakKeyDictionary()


def _truncate_seed(seed):
    return seed % _MAXINT32  # fit into a 32-bit integer


def set_random_seed(seed):
    """Sets the graph-level seed of the default graph (tf.compat.v1.set_random_seed).

    Random ops created afterwards derive their (seed, seed2) attrs from it and from
    their op-level seed (see get_seed); it is readable as `tf.get_default_graph().seed`.

    Args:
      seed: integer.
    """
    ops.get_default_graph().seed = seed


def get_seed(op_seed):
    """The (seed, seed2) pair a random op uses, as TensorFlow derives it (tf.compat.v1.get_seed).

    * graph seed set, op_seed None: (graph seed, n) where n counts the calls of this kind in
      the default graph, from 0;
    * graph seed set, op_seed given: (graph seed, op_seed);
    * only op_seed: (DEFAULT_GRAPH_SEED, op_seed);
    * neither: (None, None) (the kernel then picks nondeterministic seeds).

    Seeds are reduced modulo 2**31 - 1. The pair (0, 0) becomes (0, 2**31 - 1), since kernels
    read (0, 0) as "pick a nondeterministic seed".

    Args:
      op_seed: integer or None.

    Returns:
      A tuple of two integers, or (None, None).
    """
    graph = ops.get_default_graph()
    global_seed = graph.seed
    if global_seed is not None:
        if op_seed is None:
            op_seed = _graph_to_seed_dict.setdefault(graph, 0)
            _graph_to_seed_dict[graph] += 1
        seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        seeds = None, None
    if seeds == (0, 0):
        return (0, _MAXINT32)
    return seeds
