use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.embedding_dense_backward.default", embedding_dense_backward).samples(&[
    "grad_output: T[2,3,4]; indices: i64[2,3]{0..5}; num_weights: 5; padding_idx: -1; scale_grad_by_freq: false",
    "grad_output: T[6,4]; indices: i64[6]{0..4}; num_weights: 6; padding_idx: 2; scale_grad_by_freq: false",
    "grad_output: T[2,3,4]; indices: i64[2,3]{0..5}; num_weights: 5; padding_idx: 1; scale_grad_by_freq: true",
    "grad_output: T[4]; indices: i64[]{0..3}; num_weights: 3; padding_idx: -1; scale_grad_by_freq: false",
    "grad_output: T[0]; indices: i64[]{0..3}; num_weights: 3; padding_idx: -1; scale_grad_by_freq: false",
    "grad_output: T[2,0]; indices: i64[2]{0..3}; num_weights: 3; padding_idx: 1; scale_grad_by_freq: true",
    "grad_output: T[0,4]; indices: i64[0]; num_weights: 3; padding_idx: -1; scale_grad_by_freq: true",
])];

/// Rows of `grad_output` added into a zero [num_weights, D] table at their
/// indices (ScatterND add); `padding_idx` rows get nothing; with
/// `scale_grad_by_freq` each row is divided by its index's count.
fn embedding_dense_backward<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let g = c.args.tensor("grad_output")?;
    let idx = b.cast_like_type(c.args.tensor("indices")?, b.i64_type())?;
    let i64t = b.unranked(b.i64_type());
    let element = builder::element_type(g.r#type()).ok_or("not a tensor")?;
    let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
    let num = match c.args.sym_int("num_weights")? {
        IntArg::Static(n) => b.const_i64s(&[n])?,
        IntArg::Dynamic(v) => v,
    };
    let padding_idx = match c.args.sym_int("padding_idx")? {
        IntArg::Static(p) => p,
        IntArg::Dynamic(_) => return Err("a dynamic padding_idx is not supported".into()),
    };
    let flat_idx = b.onnx().reshape(idx, b.const_i64s(&[-1])?, None).typed(i64t)?;
    let d = b.onnx().shape(g, None, Some(-1)).typed(i64t)?;
    // [#indices, D] (not [-1, D]: D may be 0), a 0 being a real size.
    let count = b.shape(flat_idx)?;
    let rows_shape = b.onnx().concat(&[count, d], 0).typed(i64t)?;
    let mut rows = b.onnx().reshape(g, rows_shape, Some(1)).like(g)?;
    if c.args.bool("scale_grad_by_freq")? {
        let ones = b.onnx().expand(b.const_scalar(element, 1.0)?, b.shape(flat_idx)?).like(g)?;
        let zeros = b.onnx().expand(b.const_scalar(element, 0.0)?, num).like(g)?;
        let counts = b.onnx().scatter_elements(zeros, flat_idx, ones, None, Some("add")).like(g)?;
        let per_row = b.onnx().gather(counts, flat_idx, Some(0)).like(g)?;
        rows = b.onnx().div(rows, c.unsqueeze(per_row, &[1])?).like(g)?;
    }
    if padding_idx >= 0 {
        let keep = b.onnx().not(b.onnx().equal(flat_idx, b.const_i64_scalar(padding_idx)?).typed(bool_t)?).typed(bool_t)?;
        rows = b.onnx().where_(c.unsqueeze(keep, &[1])?, rows, b.const_scalar(element, 0.0)?).like(g)?;
    }
    let table_shape = b.onnx().concat(&[num, d], 0).typed(i64t)?;
    let zeros = b.onnx().expand(b.const_scalar(element, 0.0)?, table_shape).like(g)?;
    let nd_idx = c.unsqueeze(flat_idx, &[1])?;
    Ok(vec![c.b.onnx().scatter_nd(zeros, nd_idx, rows, Some("add")).typed(c.result_type(0)?)?])
}
