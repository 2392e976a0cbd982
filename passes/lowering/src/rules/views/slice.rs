use crate::{Ctx, IntArg, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.slice.Tensor", slice)
    .complex(super::complex_common::slice)
    .complex_samples(&["self: C[6,4]; dim: -2; start: 1; end: 5; step: 2", "self: C[6,4]; dim: 1; start: -3"])
    .samples(&[
        "self: T[6,4]; dim: 0; start: 1; end: 5; step: 2",
        "self: T[6,4]; dim: 1; start: -3",
        "self: T[6,4]; dim: 0; end: 100",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// `Slice(x, [start], [end], [dim], [step])`; a missing start is 0 and a
/// missing end INT64_MAX (ONNX clamps both like Python).
fn slice<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let start = ctx.args.opt_sym_int("start")?.unwrap_or(IntArg::Static(0));
    let end = ctx.args.opt_sym_int("end")?.unwrap_or(IntArg::Static(i64::MAX));
    let step = ctx.args.sym_int("step")?;
    let dim = ctx.args.int("dim")?;
    if let (IntArg::Static(0), IntArg::Static(i64::MAX), IntArg::Static(1)) = (start, end, step) {
        return Ok(vec![x]);
    }
    let starts = ctx.int_tensor(start)?;
    let ends = ctx.int_tensor(end)?;
    let axes = ctx.b.const_i64s(&[dim])?;
    let steps = ctx.int_tensor(step)?;
    Ok(vec![ctx.b.onnx().slice(x, starts, ends, Some(axes), Some(steps)).typed(ctx.result_type(0)?)?])
}
