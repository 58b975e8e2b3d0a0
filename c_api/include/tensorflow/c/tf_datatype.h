/* TF_DataType: element types of tensors. Values match TensorFlow's types.proto / tf_datatype.h. */
#ifndef TENSORFLOW_C_TF_DATATYPE_H_
#define TENSORFLOW_C_TF_DATATYPE_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TF_CAPI_EXPORT
#define TF_CAPI_EXPORT __attribute__((visibility("default")))
#endif

typedef enum TF_DataType {
  TF_FLOAT = 1,
  TF_DOUBLE = 2,
  TF_INT32 = 3, /* Int32 tensors are always in 'host' memory. */
  TF_UINT8 = 4,
  TF_INT16 = 5,
  TF_INT8 = 6,
  TF_STRING = 7,
  TF_COMPLEX64 = 8, /* Single-precision complex */
  TF_COMPLEX = 8,   /* Old identifier kept for API backwards compatibility */
  TF_INT64 = 9,
  TF_BOOL = 10,
  TF_QINT8 = 11,   /* Quantized int8 */
  TF_QUINT8 = 12,  /* Quantized uint8 */
  TF_QINT32 = 13,  /* Quantized int32 */
  TF_BFLOAT16 = 14,
  TF_QINT16 = 15,
  TF_QUINT16 = 16,
  TF_UINT16 = 17,
  TF_COMPLEX128 = 18,
  TF_HALF = 19,
  TF_RESOURCE = 20,
  TF_VARIANT = 21,
  TF_UINT32 = 22,
  TF_UINT64 = 23,
  TF_FLOAT8_E5M2 = 24,
  TF_FLOAT8_E4M3FN = 25,
  TF_FLOAT8_E4M3FNUZ = 26,
  TF_FLOAT8_E4M3B11FNUZ = 27,
  TF_FLOAT8_E5M2FNUZ = 28,
  TF_INT4 = 29,
  TF_UINT4 = 30,
  TF_INT2 = 31,
  TF_UINT2 = 32,
} TF_DataType;

/* Size in bytes of one element of `dt`; 0 for types without a fixed size
 * (TF_RESOURCE, TF_VARIANT) and for values outside the enum. TF_STRING
 * elements are TF_TString structs (24 bytes). Thread-safe. */
TF_CAPI_EXPORT extern size_t TF_DataTypeSize(TF_DataType dt);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_DATATYPE_H_ */
