use super::common::shape_slice;
use crate::{IntArg, Rule};

/// Reshape to `shape[:dim] + sizes + shape[dim+1:]`. A 0 in `sizes` or after
/// `dim` is a real empty dim, not ONNX's "copy the input's dim at this
/// position" (which points at another dim once `sizes` shifted them), so
/// such shapes get `allowzero`; the common static case keeps a plain Reshape
/// (the optimizer's attention and rotary patterns match plain ones). ONNX
/// forbids -1 next to a 0 (and cannot infer -1 beside one), so where a 0 is
/// possible a -1 in `sizes` is resolved first: `shape[dim]` divided by the
/// product of the other sizes, as torch infers it.
pub const RULES: &[Rule] = &[Rule::custom("aten.unflatten.int", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.dim(c.args.int("dim")?, rank)? as i64;
    let sizes = c.args.sym_ints("sizes")?;
    let i64_type = c.b.i64_type();
    let dims = crate::builder::dims(melior::ir::ValueLike::r#type(&x)).unwrap_or_default();
    let maybe_zero = |d: &Option<i64>| !matches!(d, Some(n) if *n > 0);
    let allow_zero = sizes.iter().any(|s| !matches!(s, IntArg::Static(n) if *n > 0 || *n == -1))
        || dims.iter().skip(dim as usize + 1).any(maybe_zero);
    let resolve = allow_zero || dims.iter().take(dim as usize).any(maybe_zero);
    let sizes = match sizes.iter().position(|s| matches!(s, IntArg::Static(-1))) {
        Some(infer) if resolve => {
            let others: Vec<IntArg> =
                sizes.iter().enumerate().filter(|(i, _)| *i != infer).map(|(_, s)| *s).collect();
            let known = if others.is_empty() {
                c.b.const_i64s(&[1])?
            } else {
                let others = c.int_list_tensor(&others)?;
                let prod = c.reduce(crate::Reduction::Prod, others, None, true, c.b.unranked(i64_type))?;
                // torch refuses a -1 next to a 0 size; never divide by zero here.
                let one = c.b.const_i64s(&[1])?;
                c.b.onnx().max(&[prod, one]).typed(c.b.unranked(i64_type))?
            };
            let whole = shape_slice(c, x, dim, Some(dim + 1))?;
            let inferred = c.b.onnx().div(whole, known).typed(c.b.unranked(i64_type))?;
            let mut parts = Vec::new();
            if infer > 0 {
                parts.push(c.int_list_tensor(&sizes[..infer])?);
            }
            parts.push(inferred);
            if infer + 1 < sizes.len() {
                parts.push(c.int_list_tensor(&sizes[infer + 1..])?);
            }
            c.b.onnx().concat(&parts, 0).typed(c.b.unranked(i64_type))?
        }
        _ => c.int_list_tensor(&sizes)?,
    };
    let mut parts = Vec::new();
    if dim > 0 {
        parts.push(shape_slice(c, x, 0, Some(dim))?);
    }
    parts.push(sizes);
    if dim + 1 < rank as i64 {
        parts.push(shape_slice(c, x, dim + 1, None)?);
    }
    let shape = c.b.onnx().concat(&parts, 0).typed(c.b.unranked(i64_type))?;
    Ok(vec![c.b.onnx().reshape(x, shape, allow_zero.then_some(1)).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[2,12]; dim: 1; sizes: [3,4]",
    "self: T[6,2]; dim: 0; sizes: [-1,2]",
    "self: T[4,0]; dim: 0; sizes: [2,2]",
    "self: T[4,0]; dim: 1; sizes: [2,0,0,0]",
    "self: T[0,6]; dim: 1; sizes: [-1,3]",
    "self: T[2,0,6]; dim: -1; sizes: [2,-1]",
])
.dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
