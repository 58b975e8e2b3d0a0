"""DLPack interchange (tf.experimental.dlpack), following the Python DLPack
protocol: https://dmlc.github.io/dlpack/latest/python_spec.html

minitf values are NumPy arrays (what Session.run returns and feeds), so:
  * to_dlpack(value) -> a PyCapsule named "dltensor" sharing the memory of
    `value` (an ndarray, a fetched array, or any DLPack producer);
  * from_dlpack(capsule_or_producer) -> an ndarray viewing the producer's
    memory, which Session.run feeds and np.asarray views without a copy;
  * fetched arrays are ndarrays, so np.from_dlpack / torch.from_dlpack /
    jax.dlpack.from_dlpack take their memory without a copy as they are.
The memory stays valid as long as any of the sharing objects lives.
"""
import numpy as np

from minitf import pywrap_tensorflow_internal as _c

_KDLCPU = 1
_MAX_VERSION = (1, 1)


def to_dlpack(value):
    """A DLPack capsule ("dltensor", DLManagedTensor) sharing `value`'s memory.

    Mirrors tf.experimental.dlpack.to_dlpack.
    Args:
      value: a NumPy array (C-contiguous arrays are shared, others copied
        once), a value fetched by Session.run, or any object with
        `__dlpack__` (e.g. a torch.Tensor), which is imported first.
    Returns:
      A PyCapsule that a consumer (torch.from_dlpack, from_dlpack, ...) may
      consume once; the memory lives until that consumer releases it.
    Raises:
      BufferError: a dtype DLPack cannot describe (strings) or a non-CPU
        producer.
    """
    if not isinstance(value, (np.ndarray, np.generic)) and hasattr(value, "__dlpack__"):
        value = from_dlpack(value)
    return _c.MT_ToDLPack(value, 0)


def _capsule_of(producer):
    """The capsule from `producer.__dlpack__`, versioned when it can."""
    if hasattr(producer, "__dlpack_device__"):
        device_type, device_id = producer.__dlpack_device__()
        if int(device_type) != _KDLCPU:
            raise BufferError("DLPack tensor is on device type %d (id %d); minitf imports only "
                              "CPU tensors" % (int(device_type), int(device_id)))
    try:
        return producer.__dlpack__(stream=None, max_version=_MAX_VERSION)
    except TypeError:  # a producer that predates DLPack 1.0
        return producer.__dlpack__()


def from_dlpack(capsule_or_producer):
    """An ndarray viewing the memory of a DLPack capsule or producer.

    Mirrors tf.experimental.dlpack.from_dlpack.
    Args:
      capsule_or_producer: a PyCapsule named "dltensor" or
        "dltensor_versioned" (consumed: renamed "used_dltensor[_versioned]",
        so it can be consumed only once), or an object with `__dlpack__`
        and `__dlpack_device__` (NumPy, PyTorch, JAX CPU arrays).
    Returns:
      An ndarray of the same shape and dtype sharing the memory (strided
      producers are copied once); 0-d tensors give a NumPy scalar, as
      Session.run does.
    Raises:
      BufferError: already consumed, a non-CPU device, or a dtype TensorFlow
        has no equivalent for.
      TypeError: not a capsule nor a DLPack producer.
    """
    obj = capsule_or_producer
    if type(obj).__name__ == "PyCapsule":
        return _c.MT_FromDLPack(obj)
    if not hasattr(obj, "__dlpack__"):
        raise TypeError("from_dlpack expects a DLPack capsule or an object with __dlpack__, got "
                        "%s" % type(obj).__name__)
    return _c.MT_FromDLPack(_capsule_of(obj))
