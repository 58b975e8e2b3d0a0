"""Nested structures of tensors (tf.nest): lists, tuples, namedtuples and
dicts (visited in sorted key order, as TensorFlow does); anything else is a
leaf. Mirrors tensorflow/python/util/nest.py for these types."""
import collections.abc as _abc


def is_nested(x):
    """True for list, tuple (incl. namedtuple) and Mapping values (tf.nest.is_nested)."""
    return isinstance(x, (list, tuple, _abc.Mapping))


def _children(x):
    if isinstance(x, _abc.Mapping):
        return [x[k] for k in sorted(x)]
    return list(x)


def flatten(structure, expand_composites=False):
    """The leaves of `structure` in order (tf.nest.flatten); a leaf gives [leaf]."""
    if not is_nested(structure):
        return [structure]
    out = []
    for c in _children(structure):
        out.extend(flatten(c))
    return out


def _rebuild(template, children):
    if isinstance(template, _abc.Mapping):
        keys = sorted(template)
        return type(template)((k, v) for k, v in zip(keys, children)) \
            if not isinstance(template, dict) or type(template) is not dict \
            else dict(zip(keys, children))
    if isinstance(template, tuple) and hasattr(template, "_fields"):  # namedtuple
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children)
    return list(children)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence` arranged like `structure` (tf.nest.pack_sequence_as).

    Raises ValueError when the counts differ."""
    flat_sequence = list(flat_sequence)
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError("Could not pack sequence. Structure had %d atoms, but flat_sequence had "
                         "%d items. Structure: %s, flat_sequence: %s." %
                         (n, len(flat_sequence), structure, flat_sequence))
    it = iter(flat_sequence)

    def build(s):
        if not is_nested(s):
            return next(it)
        return _rebuild(s, [build(c) for c in _children(s)])
    return build(structure)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError (TypeError for differing sequence types when check_types) unless both
    structures nest the same way (tf.nest.assert_same_structure)."""
    def check(a, b):
        if is_nested(a) != is_nested(b):
            raise ValueError("The two structures don't have the same nested structure.\n\n"
                             "First structure: %s\n\nSecond structure: %s" % (nest1, nest2))
        if not is_nested(a):
            return
        if check_types and type(a) is not type(b) and not (
                isinstance(a, list) and isinstance(b, list)):
            raise TypeError("The two structures don't have the same sequence type. Input "
                            "structure has type %s, while shallow structure has type %s." %
                            (type(a), type(b)))
        ca, cb = _children(a), _children(b)
        if len(ca) != len(cb):
            raise ValueError("The two structures don't have the same nested structure.\n\n"
                             "First structure: %s\n\nSecond structure: %s\n\nMore specifically: "
                             "The two structures don't have the same number of elements."
                             % (nest1, nest2))
        if isinstance(a, _abc.Mapping) and sorted(a) != sorted(b):
            raise ValueError("The two dictionaries don't have the same set of keys. First "
                             "structure has keys %s, while second structure has keys %s." %
                             (sorted(a), sorted(b)))
        for x, y in zip(ca, cb):
            check(x, y)
    check(nest1, nest2)


def map_structure(func, *structure, **kwargs):
    """func applied to the leaves of each structure, packed like the first (tf.nest.map_structure)."""
    check_types = kwargs.pop("check_types", True)
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])
