"""SaveSpec and SaveableObject (TensorFlow's training/saving/saveable_object.py)."""


class SaveSpec:
    """One tensor a saveable writes: `tensor` (a Tensor, or a callable making one when the
    save op is built), its checkpoint key `name`, `slice_spec` ("" for a whole tensor,
    "4 3 0,2:-" for a slice), `dtype` and `device`."""

    def __init__(self, tensor, slice_spec, name, dtype=None, device=None):
        self._tensor = tensor
        self.slice_spec = slice_spec
        self.name = name
        self.dtype = dtype if dtype is not None else tensor.dtype
        self.device = device if device is not None else tensor.device

    @property
    def tensor(self):
        return self._tensor() if callable(self._tensor) else self._tensor


class SaveableObject:
    """Something saved as one or more SaveSpecs and restored from the tensors read back:
    `op` (what it saves, used to refuse saving one object under two names), `specs`,
    `name`. Subclasses implement restore(restored_tensors, restored_shapes) -> op."""

    def __init__(self, op, specs, name):
        self.op = op
        self.specs = specs
        self.name = name

    @property
    def device(self):
        return self.specs[0].device

    def restore(self, restored_tensors, restored_shapes):
        raise NotImplementedError
