# Developer check: minitf protos vs real TensorFlow descriptors (names, numbers, types)
# and a wire round trip of the digits fixture. Run: /opt/tfvenv/bin/python tools/check_protos.py
import sys
import os
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "pyfront"))
# The generated modules only need the package path, not minitf's runtime (BLAS, SWIG).
import types  # noqa: E402
_pkg = types.ModuleType("minitf")
_pkg.__path__ = [os.path.join(ROOT, "pyfront", "minitf")]
sys.modules["minitf"] = _pkg
import tensorflow as tf
from tensorflow.core.framework import graph_pb2 as tg, op_def_pb2 as to, types_pb2 as tt
from tensorflow.core.protobuf import config_pb2 as tc
from minitf.core.framework import graph_pb2 as mg, op_def_pb2 as mo, types_pb2 as mt
from minitf.core.protobuf import config_pb2 as mc
seen = set()
def cmp(a, b):
    if a.full_name in seen: return
    seen.add(a.full_name)
    assert a.full_name == b.full_name, (a.full_name, b.full_name)
    for f in b.fields:
        g = a.fields_by_name.get(f.name)
        if g is None:
            print("missing in TF?", a.full_name, f.name); continue
        assert (g.number, g.type, g.is_repeated) == (f.number, f.type, f.is_repeated), (a.full_name, f.name)
        if f.message_type is not None: cmp(g.message_type, f.message_type)
        if f.enum_type is not None:
            for v in f.enum_type.values:
                assert g.enum_type.values_by_name[v.name].number == v.number, v.name
    print("ok", b.full_name, len(b.fields), "of", len(a.fields))
for t, m in [(tg.GraphDef, mg.GraphDef), (to.OpList, mo.OpList), (tc.ConfigProto, mc.ConfigProto), (tc.RunOptions, mc.RunOptions), (tc.RunMetadata, mc.RunMetadata)]:
    cmp(t.DESCRIPTOR, m.DESCRIPTOR)
for v in mt.DataType.DESCRIPTOR.values:
    assert tt.DataType.Value(v.name) == v.number, v.name
print("DataType ok", len(mt.DataType.DESCRIPTOR.values))
# wire check on fixture
data = open(os.path.join(ROOT, "tests/fixtures/digits_mlp/graph.pb"), "rb").read()
g = mg.GraphDef.FromString(data)
print(len(g.node), g.node[0].name, g.versions.producer)
assert tg.GraphDef.FromString(g.SerializeToString()) == tg.GraphDef.FromString(data)
print("wire round trip ok")
# checkpoint messages (saver, state file, tensor bundle index)
from tensorflow.core.protobuf import saver_pb2 as ts, tensor_bundle_pb2 as tb
from tensorflow.python.training import checkpoint_state_pb2 as tcs
from minitf.core.protobuf import saver_pb2 as ms, tensor_bundle_pb2 as mb
from minitf.training import checkpoint_state_pb2 as mcs
for t, m in [(ts.SaverDef, ms.SaverDef), (tcs.CheckpointState, mcs.CheckpointState),
             (tb.BundleHeaderProto, mb.BundleHeaderProto), (tb.BundleEntryProto, mb.BundleEntryProto)]:
    cmp(t.DESCRIPTOR, m.DESCRIPTOR)
# MetaGraph / SavedModel messages (object_graph_def and composite_tensor are left out
# of minitf's schema; cmp prints them as missing)
from tensorflow.core.protobuf import meta_graph_pb2 as tmg, saved_model_pb2 as tsm
from tensorflow.core.framework import variable_pb2 as tv
from minitf.core.protobuf import meta_graph_pb2 as mmg, saved_model_pb2 as msm
from minitf.core.framework import variable_pb2 as mv
for t, m in [(tsm.SavedModel, msm.SavedModel), (tmg.MetaGraphDef, mmg.MetaGraphDef),
             (tmg.CollectionDef, mmg.CollectionDef), (tv.VariableDef, mv.VariableDef)]:
    cmp(t.DESCRIPTOR, m.DESCRIPTOR)
# a TF SavedModel with the left-out fields survives a minitf parse/serialize
sm = tsm.SavedModel(saved_model_schema_version=1)
mg_ = sm.meta_graphs.add()
mg_.object_graph_def.nodes.add()
mg_.signature_def["s"].outputs["z"].composite_tensor.components.add(name="q:0")
mg_.collection_def["a"].any_list.value.add().Pack(tv.VariableDef(variable_name="v:0"))
raw = sm.SerializeToString(deterministic=True)
back = msm.SavedModel.FromString(raw)
assert back.SerializeToString(deterministic=True) == raw
unpacked = mv.VariableDef()
assert back.meta_graphs[0].collection_def["a"].any_list.value[0].Unpack(unpacked)
assert unpacked.variable_name == "v:0"
print("meta graph unknown-field round trip and Any.Unpack ok")
from tensorflow.core.protobuf import control_flow_pb2 as tcf
from minitf.core.protobuf import control_flow_pb2 as mcf
for t, m in [(tcf.CondContextDef, mcf.CondContextDef), (tcf.WhileContextDef, mcf.WhileContextDef)]:
    cmp(t.DESCRIPTOR, m.DESCRIPTOR)
