/* Gradients of the TensorList ops (runtime/gradient.h), node for node as TensorFlow 2.21's
 * list_ops.py: a list's gradient is a list of the element gradients, so reading an element
 * (GetItem) makes a reserved list with the gradient set at that index, stacking (Stack) turns
 * the gradient back into a list (FromTensor), and so on. TensorListLength, ElementShape,
 * ConcatLists and PushBackBatch are not differentiable, as in TensorFlow. */
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"

static TF_Output node1(mt_grad_ctx* g, const char* type, const TF_Output* in, int n) {
  mt_gnode b = mt_g_begin(g, type, NULL);
  for (int i = 0; i < n; i++) mt_g_in(&b, in[i]);
  return mt_g_end0(&b);
}

static TF_Output length_of(mt_grad_ctx* g, TF_Output list) {
  return node1(g, "TensorListLength", &list, 1);
}

static TF_Output element_shape_of(mt_grad_ctx* g, TF_Output list) {
  mt_gnode b = mt_g_begin(g, "TensorListElementShape", NULL);
  mt_g_in(&b, list);
  mt_g_attr_type(&b, "shape_type", TF_INT32);
  return mt_g_end0(&b);
}

/* array_ops.slice(array_ops.shape(t), [1], [-1]): t's shape without dim 0. */
static TF_Output shape_tail(mt_grad_ctx* g, TF_Output t) {
  return gu_slice(g, gu_shape(g, t, TF_INT32), gu_pl1(gu_i(1)), gu_pl1(gu_i(-1)));
}

/* list_ops.empty_tensor_list(element_shape, dtype): max_num_elements -1. */
static TF_Output empty_list(mt_grad_ctx* g, TF_Output es, TF_DataType dtype) {
  mt_gnode b = mt_g_begin(g, "EmptyTensorList", NULL);
  mt_g_in(&b, es);
  const int32_t m1 = -1;
  mt_g_in_const_i32(&b, "max_num_elements", &m1, 1, 0);
  mt_g_attr_type(&b, "element_dtype", dtype);
  return mt_g_end0(&b);
}

/* The element_shape Const the Python wrappers make from a static shape
 * (list_ops._build_element_shape): -1 when unknown, else the dims (-1 for
 * unknown ones), named "<node>/element_shape". */
static void in_static_element_shape(mt_gnode* b, const mt_shape* s) {
  if (!s || s->rank < 0) {
    const int32_t m1 = -1;
    mt_g_in_const_i32(b, "element_shape", &m1, 1, 0);
    return;
  }
  int32_t d[MT_MAX_DIMS];
  for (int i = 0; i < s->rank; i++) d[i] = (int32_t)s->dims[i];
  mt_g_in_const_i32(b, "element_shape", d, s->rank, 1);
}

static void push_back_grad(mt_grad_ctx* g) {
  if (!g->dy[0].oper) return;
  mt_gnode b = mt_g_begin(g, "TensorListPopBack", NULL);
  mt_g_in(&b, g->dy[0]);
  mt_g_in(&b, gu_shape(g, mt_g_x(g, 1), TF_INT32));
  mt_g_copy_attr(&b, "element_dtype");
  TF_Operation* op = mt_g_end(&b);
  if (!op) return;
  g->dx[0] = (TF_Output){op, 0};
  g->dx[1] = (TF_Output){op, 1};
}

static void pop_back_grad(mt_grad_ctx* g) {
  TF_Output dlist = g->dy[0], delem = g->dy[1];
  const TF_DataType dt = mt_op_attr_type(g->op, "element_dtype", TF_FLOAT);
  if (!dlist.oper) dlist = empty_list(g, element_shape_of(g, mt_g_y(g, 0)), dt);
  if (!delem.oper) delem = gu_zeros_like(g, mt_g_y(g, 1));
  TF_Output in[2] = {dlist, delem};
  g->dx[0] = node1(g, "TensorListPushBack", in, 2);
}

static void stack_grad(mt_grad_ctx* g) {
  const mt_shape* s = mt_g_static_shape(g->dy[0]);
  mt_shape tail = mt_shape_unknown();
  if (s && s->rank >= 1) tail = mt_shape_make(s->dims + 1, s->rank - 1);
  mt_gnode b = mt_g_begin(g, "TensorListFromTensor", NULL);
  mt_g_in(&b, g->dy[0]);
  in_static_element_shape(&b, &tail);
  g->dx[0] = mt_g_end0(&b);
}

static void concat_grad(mt_grad_ctx* g) {
  TF_Output in[3] = {g->dy[0], element_shape_of(g, mt_g_x(g, 0)), mt_g_y(g, 1)};
  g->dx[0] = node1(g, "TensorListSplit", in, 3);
}

static void split_grad(mt_grad_ctx* g) {
  TF_Output tail = shape_tail(g, mt_g_x(g, 0));
  gu_part parts[2] = {gu_pl1(gu_i(-1)), gu_pt(tail)};
  TF_Output es = gu_concat(g, parts, 2, 0, (TF_Output){NULL, 0});
  mt_gnode b = mt_g_begin(g, "TensorListConcatV2", NULL);
  mt_g_in(&b, g->dy[0]);
  mt_g_in(&b, es);
  mt_g_in(&b, mt_g_x(g, 2));
  mt_g_attr_type(&b, "element_dtype", mt_g_dtype(mt_g_x(g, 0)));
  g->dx[0] = mt_g_end0(&b);
}

static void from_tensor_grad(mt_grad_ctx* g) {
  TF_Output t = mt_g_x(g, 0);
  const mt_shape* s = mt_g_static_shape(t);
  const int64_t num = s && s->rank >= 1 && s->dims[0] >= 0 ? s->dims[0] : -1;
  TF_Output dlist = g->dy[0];
  if (!dlist.oper) dlist = empty_list(g, element_shape_of(g, mt_g_y(g, 0)), mt_g_dtype(t));
  TF_Output es = shape_tail(g, t);
  mt_gnode b = mt_g_begin(g, "TensorListStack", NULL);
  mt_g_in(&b, dlist);
  mt_g_in(&b, es);
  mt_g_attr_type(&b, "element_dtype", mt_g_dtype(t));
  mt_g_attr_int(&b, "num_elements", num);
  g->dx[0] = mt_g_end0(&b);
}

static void get_item_grad(mt_grad_ctx* g) {
  TF_Output n = length_of(g, mt_g_x(g, 0));
  TF_Output es = element_shape_of(g, mt_g_x(g, 0));
  mt_gnode r = mt_g_begin(g, "TensorListReserve", NULL);
  mt_g_in(&r, es);
  mt_g_in(&r, n);
  mt_g_attr_type(&r, "element_dtype", mt_g_dtype(g->dy[0]));
  TF_Output in[3] = {mt_g_end0(&r), mt_g_x(g, 1), g->dy[0]};
  g->dx[0] = node1(g, "TensorListSetItem", in, 3);
}

static void set_item_grad(mt_grad_ctx* g) {
  TF_Output dlist = g->dy[0], item = mt_g_x(g, 2);
  if (!dlist.oper) return;
  TF_Output in[3] = {dlist, mt_g_x(g, 1), gu_zeros_like(g, item)};
  TF_Output list_grad = node1(g, "TensorListSetItem", in, 3);
  mt_gnode b = mt_g_begin(g, "TensorListGetItem", NULL);
  mt_g_in(&b, dlist);
  mt_g_in(&b, mt_g_x(g, 1));
  mt_g_in(&b, gu_shape(g, item, TF_INT32));
  mt_g_attr_type(&b, "element_dtype", mt_g_dtype(item));
  g->dx[2] = mt_g_end0(&b);
  if (mt_op_attr_bool(g->op, "resize_if_index_out_of_bounds", 0)) {
    TF_Output rin[2] = {list_grad, length_of(g, mt_g_x(g, 0))};
    list_grad = node1(g, "TensorListResize", rin, 2);
  }
  g->dx[0] = list_grad;
}

static void resize_grad(mt_grad_ctx* g) {
  if (!g->dy[0].oper) return;
  TF_Output in[2] = {g->dy[0], length_of(g, mt_g_x(g, 0))};
  g->dx[0] = node1(g, "TensorListResize", in, 2);
}

static void gather_grad(mt_grad_ctx* g) {
  TF_Output es = element_shape_of(g, mt_g_x(g, 0));
  TF_Output n = length_of(g, mt_g_x(g, 0));
  mt_gnode r = mt_g_begin(g, "TensorListReserve", NULL);
  mt_g_in(&r, es);
  mt_g_in(&r, n);
  mt_g_attr_type(&r, "element_dtype", mt_g_dtype(g->dy[0]));
  TF_Output in[3] = {mt_g_end0(&r), g->dy[0], mt_g_x(g, 1)};
  g->dx[0] = node1(g, "TensorListScatterIntoExistingList", in, 3);
}

/* TensorListGather(dlist, indices, shape(tensor)[1:]): the rows scattered. */
static TF_Output gather_rows(mt_grad_ctx* g, TF_Output dlist, TF_Output tensor, TF_Output ind) {
  TF_Output es = shape_tail(g, tensor);
  mt_gnode b = mt_g_begin(g, "TensorListGather", NULL);
  mt_g_in(&b, dlist);
  mt_g_in(&b, ind);
  mt_g_in(&b, es);
  mt_g_attr_type(&b, "element_dtype", mt_g_dtype(tensor));
  return mt_g_end0(&b);
}

static void scatter_v2_grad(mt_grad_ctx* g) {
  if (g->dy[0].oper) g->dx[0] = gather_rows(g, g->dy[0], mt_g_x(g, 0), mt_g_x(g, 1));
}

static void scatter_into_existing_grad(mt_grad_ctx* g) {
  if (!g->dy[0].oper) return;
  TF_Output tensor = mt_g_x(g, 1), ind = mt_g_x(g, 2);
  g->dx[1] = gather_rows(g, g->dy[0], tensor, ind);
  TF_Output in[3] = {g->dy[0], gu_zeros_like(g, tensor), ind};
  g->dx[0] = node1(g, "TensorListScatterIntoExistingList", in, 3);
}

static const mt_grad_spec list_grads[] = {
    {"TensorListPushBack", push_back_grad},
    {"TensorListPopBack", pop_back_grad},
    {"TensorListStack", stack_grad},
    {"TensorListConcatV2", concat_grad},
    {"TensorListSplit", split_grad},
    {"TensorListFromTensor", from_tensor_grad},
    {"TensorListGetItem", get_item_grad},
    {"TensorListSetItem", set_item_grad},
    {"TensorListResize", resize_grad},
    {"TensorListGather", gather_grad},
    {"TensorListScatterV2", scatter_v2_grad},
    {"TensorListScatterIntoExistingList", scatter_into_existing_grad},
    {"TensorListElementShape", NULL},
    {"TensorListLength", NULL},
};

void mt_register_list_grads(void) {
  mt_register_gradients(list_grads, (int)(sizeof list_grads / sizeof list_grads[0]));
}
