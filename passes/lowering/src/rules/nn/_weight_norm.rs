use crate::{builder, Ctx, Rule};
use melior::ir::Value;

/// `torch._weight_norm(v, g, dim)`: what `nn.utils.parametrizations.weight_norm`
/// (Wav2Vec2's positional convolution, HiFi-GAN and other vocoders) computes
/// from its parameters in eval mode.
pub const RULES: &[Rule] = &[Rule::custom("aten._weight_norm.default", weight_norm)
    .samples(&[
        "v: T[4,3,5]; g: T[4,1,1]",
        "v: T[4,3,5]; g: T[1,1,5]; dim: 2",
        "v: T[4,3,5]; g: T[1,3,1]; dim: 1",
        "v: T[4,3,5]; g: T[1,3,1]; dim: -2",
        "v: T[4,3,5]; g: T[]; dim: -1",
        "v: T[6,4]; g: T[6,1]",
        "v: T[5]; g: T[5]",
    ])
    .refuses(&[("v: T[4,3,5]; g: T[4,1,1]; dim: 3", "out of range")])
    .dtypes(&["f32", "f64", "f16"])];

/// `v * (g / norm_except_dim(v, 2, dim))` (ATen's `_weight_norm`): the 2-norm
/// over every dim but `dim`, kept as size-1 dims; `dim = -1` is torch's
/// special case, the norm of the whole tensor (not the last dim). The norm
/// is accumulated in float64 (float32 for 16-bit types, whose torch kernel
/// accumulates in float32 and rounds the norm to the input type), rounded to
/// the result type, then divided and multiplied there as torch does.
fn weight_norm<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = ctx.result_element(0)?;
    if !builder::is_float(el) {
        return Err("weight norm of a non-float tensor".into());
    }
    let b = &ctx.b;
    let v = ctx.tensor_as("v", el)?;
    let g = ctx.tensor_as("g", el)?;
    let rank = ctx.rank(v)?;
    let dim = ctx.args.int("dim")?;
    let axes: Option<Vec<i64>> = if dim == -1 {
        None
    } else {
        let d = ctx.dim(dim, rank)? as i64;
        Some((0..rank as i64).filter(|&a| a != d).collect())
    };
    let acc = if el == melior::ir::Type::float64(b.context) || el == b.f32_type() {
        melior::ir::Type::float64(b.context)
    } else {
        b.f32_type()
    };
    let vd = b.cast_like_type(v, acc)?;
    let norm = match &axes {
        // A rank-1 v normalized along its only dim: each element's norm is its |v|.
        Some(axes) if axes.is_empty() => b.onnx().abs(vd).like(vd)?,
        Some(axes) => super::prod_common::vector_norm(ctx, vd, Some(axes), true, 2.0)?,
        None => super::prod_common::vector_norm(ctx, vd, None, false, 2.0)?,
    };
    let norm = b.cast_like_type(norm, el)?;
    let scale = b.onnx().div(g, norm).like(g)?;
    Ok(vec![ctx.b.onnx().mul(v, scale).typed(ctx.result_type(0)?)?])
}
