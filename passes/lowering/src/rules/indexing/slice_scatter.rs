use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.slice_scatter.default", slice_scatter)
    .samples(&[
        "self: T[6,4]; src: T[2,4]; dim: 0; start: 1; end: 5; step: 2",
        "self: T[6,4]; src: T[6,2]; dim: 1; start: -2",
    ])
    .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];

/// Writes `src` into `self[start:end:step]` along `dim` with
/// `ScatterElements`: the indices are `start + step * i`, broadcast to src's
/// shape.
fn slice_scatter<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let src = ctx.args.tensor("src")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.norm_dim(ctx.args.int("dim")?, rank);
    let step = match ctx.args.sym_int("step")? {
        IntArg::Static(s) => s,
        IntArg::Dynamic(_) => return Err("a dynamic step is not supported".into()),
    };
    let x_dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let start_v = match ctx.args.opt_sym_int("start")? {
        None => b.const_i64_scalar(0)?,
        Some(IntArg::Static(s)) if s < 0 => match x_dims[dim as usize] {
            Some(d) => b.const_i64_scalar((s + d).max(0))?,
            // Counted from the end of a dynamic dim (Swin's attention-mask
            // slices `[-window:-shift]`): max(s + size, 0) in the graph.
            None => {
                let i64_t = b.i64_type();
                let size = b.onnx().gather(b.shape(x)?, b.const_i64_scalar(dim)?, Some(0)).typed(b.unranked(i64_t))?;
                let from_end = b.onnx().add(size, b.const_i64_scalar(s)?).typed(b.unranked(i64_t))?;
                b.onnx().max(&[from_end, b.const_i64_scalar(0)?]).typed(b.unranked(i64_t))?
            }
        },
        Some(other) => ctx.int_scalar(other, b.i64_type())?,
    };
    // i = 0 .. src.shape[dim]
    let src_shape = b.shape(src)?;
    let n =
        b.onnx().gather(src_shape, b.const_i64_scalar(dim)?, Some(0)).typed(b.unranked(b.i64_type()))?;
    let zero = b.const_i64_scalar(0)?;
    let one = b.const_i64_scalar(1)?;
    let i = b.onnx().range(zero, n, one, None).typed(b.unranked(b.i64_type()))?;
    let step_c = b.const_i64_scalar(step)?;
    let scaled = b.onnx().mul(i, step_c).typed(b.unranked(b.i64_type()))?;
    let idx = b.onnx().add(scaled, start_v).typed(b.unranked(b.i64_type()))?;
    // Shape [1, .., n, .., 1] then broadcast to src's shape.
    let mut shape = vec![1i64; rank];
    shape[dim as usize] = -1;
    let shape = b.const_i64s(&shape)?;
    let idx = b.onnx().reshape(idx, shape, None).typed(b.unranked(b.i64_type()))?;
    let idx = b.onnx().expand(idx, src_shape).typed(b.unranked(b.i64_type()))?;
    let src = b.cast_like(src, x)?;
    Ok(vec![ctx.b.onnx().scatter_elements(x, idx, src, Some(dim), None).typed(ctx.result_type(0)?)?])
}
