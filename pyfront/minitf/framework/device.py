"""Device specifications (tf.DeviceSpec, TF1 flavour DeviceSpecV1).

A device string is `/job:<name>/replica:<n>/task:<n>/device:<type>:<n|*>`,
every part optional; the short forms `/cpu:0`, `/gpu:1`, `GPU:2` name the
device type and index. Printing gives the canonical form
(`/job:w/replica:0/task:1/device:GPU:1`; "cpu"/"gpu" upper-cased). Mirrors
tensorflow/python/framework/device_spec.py and device.py.
"""

_VALID_DEVICE_TYPES = frozenset(["CPU", "GPU", "TPU", "CUSTOM", "EPU"])


def _as_str_or_none(v):
    return None if v is None else str(v)


def _as_int_or_none(v):
    return None if v is None else int(v)


def _as_device_str_or_none(device_type):
    if device_type in ("cpu", "gpu"):
        return device_type.upper()
    return _as_str_or_none(device_type)


class DeviceSpecV1:
    """A (partial) device specification: job, replica, task, device_type,
    device_index, each None when unspecified (tf.compat.v1.DeviceSpec).

    Raises ValueError from from_string/parse_from_string for unknown parts
    ("Unknown attribute 'foo' is encountered while parsing the device spec:
    '/foo:1'.") and non-integer replica/task/index.
    """

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self._job = _as_str_or_none(job)
        self._replica = _as_int_or_none(replica)
        self._task = _as_int_or_none(task)
        self._device_type = _as_device_str_or_none(device_type)
        self._device_index = _as_int_or_none(device_index)

    # Fields (settable, as DeviceSpecV1).
    job = property(lambda self: self._job,
                   lambda self, v: setattr(self, "_job", _as_str_or_none(v)))
    replica = property(lambda self: self._replica,
                       lambda self, v: setattr(self, "_replica", _as_int_or_none(v)))
    task = property(lambda self: self._task,
                    lambda self, v: setattr(self, "_task", _as_int_or_none(v)))
    device_type = property(lambda self: self._device_type,
                           lambda self, v: setattr(self, "_device_type",
                                                   _as_device_str_or_none(v)))
    device_index = property(lambda self: self._device_index,
                            lambda self, v: setattr(self, "_device_index", _as_int_or_none(v)))

    def _components(self):
        return (self._job, self._replica, self._task, self._device_type, self._device_index)

    @staticmethod
    def _string_to_components(spec):
        job = replica = task = device_type = device_index = None
        spec = spec or ""
        for y in (x.split(":") for x in spec.split("/")):
            ly = len(y)
            if not y or y == [""]:
                continue
            if ly == 2 and y[0] == "job":
                job = y[1]
            elif ly == 2 and y[0] == "replica":
                replica = y[1]
            elif ly == 2 and y[0] == "task":
                task = y[1]
            elif ly in (1, 2) and y[0].upper() in _VALID_DEVICE_TYPES:
                if device_type is not None:
                    raise ValueError("Multiple device types are not allowed while parsing the "
                                     "device spec: %s." % spec)
                device_type = y[0].upper()
                if ly == 2 and y[1] != "*":
                    device_index = int(y[1])
            elif ly == 3 and y[0] == "device":
                if device_type is not None:
                    raise ValueError("Multiple device types are not allowed while parsing the "
                                     "device spec: %s." % spec)
                device_type = y[1]
                if y[2] != "*":
                    device_index = int(y[2])
            elif y[0] != "":
                raise ValueError("Unknown attribute '%s' is encountered while parsing the device "
                                 "spec: '%s'." % (y[0], spec))
        return job, replica, task, device_type, device_index

    @classmethod
    def from_string(cls, spec):
        """The DeviceSpec parsed from `spec` (ValueError if malformed)."""
        return cls(*cls._string_to_components(spec))

    def parse_from_string(self, spec):
        """Replaces every field with those parsed from `spec`; returns self."""
        (self.job, self.replica, self.task, self.device_type,
         self.device_index) = self._string_to_components(spec)
        return self

    def to_string(self):
        """The canonical string, e.g. "/job:ps/task:1/device:GPU:0" ("" when empty)."""
        dev = ""
        if self._job is not None:
            dev += "/job:" + self._job
        if self._replica is not None:
            dev += "/replica:" + str(self._replica)
        if self._task is not None:
            dev += "/task:" + str(self._task)
        if self._device_type is not None:
            index = "*" if self._device_index is None else str(self._device_index)
            dev += "/device:%s:%s" % (self._device_type, index)
        return dev

    def merge_from(self, dev):
        """Overrides this spec's fields with those set in `dev` (in place)."""
        for name in ("job", "replica", "task", "device_type", "device_index"):
            v = getattr(dev, name)
            if v is not None:
                setattr(self, name, v)

    def make_merged_spec(self, dev):
        """A new spec: this one with the fields set in `dev` overriding."""
        out = DeviceSpecV1(*self._components())
        out.merge_from(dev)
        return out

    def replace(self, **kwargs):
        """A copy with the given fields replaced."""
        init = dict(zip(("job", "replica", "task", "device_type", "device_index"),
                        self._components()))
        init.update(kwargs)
        return DeviceSpecV1(**init)

    def __eq__(self, other):
        return isinstance(other, DeviceSpecV1) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return "<DeviceSpecV1 %s>" % self.to_string()


DeviceSpec = DeviceSpecV1


def canonical_name(device):
    """The canonical string of a device string or DeviceSpec ("" for None)."""
    if device is None:
        return ""
    if isinstance(device, DeviceSpecV1):
        return device.to_string()
    return DeviceSpecV1.from_string(device).to_string()


def merge_device(spec):
    """A device function merging `spec` under the op's current device (the
    fields the op already has win), as TensorFlow's string device scopes."""
    if not isinstance(spec, DeviceSpecV1):
        spec = DeviceSpecV1.from_string(spec or "")

    def _device_function(node_def):
        current = DeviceSpecV1.from_string(node_def.device or "")
        return spec.make_merged_spec(current)
    return _device_function
