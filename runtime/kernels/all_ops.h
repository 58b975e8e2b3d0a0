/* Registration entry points of the op families in runtime/kernels/, one
 * per file `<family>_ops.c`. The registry calls mt_register_all_ops() once,
 * on first use (mt_registry_get serializes it). */
#ifndef MINITF_RUNTIME_KERNELS_ALL_OPS_H_
#define MINITF_RUNTIME_KERNELS_ALL_OPS_H_

/* Every op family, in registration order. A family's file defines
 * `void mt_register_<family>_ops(void)`; the declarations are weak so a
 * family can be listed here before its file lands (an absent family
 * registers nothing). Adding a family = one X(...) entry + its file. */
#define MT_OP_FAMILIES(X)                                                          \
  X(array)        /* Const, Placeholder, Identity, Reshape, shapes, concat, ... */ \
  X(indexing)     /* Slice, StridedSlice, Gather*, Scatter*, Pad*, OneHot, ... */  \
  X(space)        /* SpaceToDepth, DepthToSpace, SpaceToBatchND, ... */            \
  X(math)         /* elementwise binary ops, Cast, AddN, Select, MatMul */         \
  X(unary)        /* elementwise unary ops */                                      \
  X(special)      /* Lgamma, Digamma, Igamma, Betainc, Zeta, Bessel, Xlogy, ... */ \
  X(complex)      /* Complex, Real, Imag, Angle, Conj, ComplexAbs */               \
  X(histogram)    /* HistogramFixedWidth, DenseBincount */                         \
  X(search)       /* LowerBound, UpperBound */                                     \
  X(fft)          /* FFT, IFFT, FFT2D/3D, FFTND, RFFTND, IRFFTND */                \
  X(reduction)    /* Sum, Mean, Prod, Max, ArgMax, Cumsum, ... */                  \
  X(segment)      /* UnsortedSegmentSum */                                         \
  X(linalg)       /* BatchMatMul*, Einsum */                                       \
  X(nn)           /* BiasAdd, activations, Softmax, batch norm, losses, TopK */    \
  X(conv)         /* Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput */         \
  X(pooling)      /* MaxPool, AvgPool, MaxPoolV2 */                                \
  X(image)        /* ResizeBilinear, ResizeNearestNeighbor */                      \
  X(random)       /* RandomUniform, RandomStandardNormal, ... */                   \
  X(state)        /* resource variables */                                         \
  X(control_flow) /* NoOp, Switch, Merge, Enter, Exit, NextIteration */          \
  X(functional)   /* PartitionedCall, If, While, Case: calls of library functions */ \
  X(sparse)       /* SparseToDense, SparseReorder, ... */                          \
  X(data_flow)    /* DynamicStitch */                                              \
  X(list)         /* TensorList ops (DT_VARIANT lists) */                          \
  X(tensor_array) /* TensorArrayV3 family (per-step resources) */                  \
  X(stack)        /* StackV2 and Stack families */                                 \
  X(summary)      /* ScalarSummary, HistogramSummary, ... */                \
  X(gradient)     /* BroadcastGradientArgs */                                 \
  X(training)     /* ResourceApply<Optimizer> */                             \
  X(backprop)     /* ReluGrad, BiasAddGrad, Conv2DBackpropFilter, MaxPoolGrad */ \
  X(logging)      /* Assert, Print, PrintV2, StringFormat, Timestamp */              \
  X(py_func)      /* PyFunc, PyFuncStateless, EagerPyFunc (runtime/py_func.h) */ \
  X(sequence)     /* ReverseSequence */                                           \
  X(io)           /* SaveV2, RestoreV2, MergeV2Checkpoints, ShardedFilename */ \
  X(io_v1)        /* Save, SaveSlices, Restore, RestoreSlice (V1 checkpoints) */ \
  X(string)       /* StringJoin, Static/RegexFullMatch, Static/RegexReplace (RE2) */ \
  X(set)          /* SetSize, DenseToDense/DenseToSparse/SparseToSparseSetOperation */ \
  X(candidate_sampler) /* Uniform/LogUniform/FixedUnigram/AllCandidateSampler, ... */ \
  X(conv3d)       /* Conv3D and its V2 backprops, MaxPool3D, AvgPool3D and their grads */ \
  X(parsing)      /* DecodeRaw, SerializeTensor, ParseTensor, En/DecodeBase64 */ \
  X(lookup)       /* HashTableV2, MutableHashTableV2, LookupTable*V2, InitializeTable*V2 */ \
  X(queue)        /* FIFOQueueV2, RandomShuffleQueueV2, ..., QueueEnqueueV2, QueueDequeueV2 */ \
  X(reader)       /* WholeFileReaderV2, TextLineReaderV2, ..., ReaderReadV2 */

#define MT_DECLARE_FAMILY(name) void mt_register_##name##_ops(void) __attribute__((weak));
MT_OP_FAMILIES(MT_DECLARE_FAMILY)
#undef MT_DECLARE_FAMILY

/* A family's gradients (runtime/gradient.h), in `<family>_grad.c`:
 * `void mt_register_<family>_grads(void)`, weak like the op families. */
#define MT_DECLARE_GRADS(name) void mt_register_##name##_grads(void) __attribute__((weak));
MT_OP_FAMILIES(MT_DECLARE_GRADS)
#undef MT_DECLARE_GRADS

/* Calls every mt_register_<family>_ops that is linked in. */
void mt_register_all_ops(void);

#endif
