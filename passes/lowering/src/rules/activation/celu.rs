use super::act_common::elu;
use crate::Rule;

/// `elu(x, alpha, scale=1, input_scale=1/alpha)` like torch.
pub const RULES: &[Rule] = &[Rule::custom("aten.celu.default", |c| {
    let x = c.args.tensor("self")?;
    if c.args.is_dynamic("alpha")? {
        // Computed in the graph (`t.item()`): `1 / alpha` too (inf for 0,
        // where torch raises).
        // `1 / alpha` in float64 as torch's celu computes it, then rounded.
        let e = c.opmath_element()?;
        let f64_type = melior::ir::Type::float64(c.b.context);
        let alpha64 = c.tensor_as("alpha", f64_type)?;
        let inverse = c.b.onnx().div(c.b.const_scalar(f64_type, 1.0)?, alpha64).like(alpha64)?;
        let (alpha, inverse) = (c.b.cast_like_type(alpha64, e)?, c.b.cast_like_type(inverse, e)?);
        let one = c.b.const_scalar(e, 1.0)?;
        return Ok(vec![super::act_common::elu_args(c, x, alpha, one, inverse)?]);
    }
    let alpha = c.args.number("alpha")?.as_f64();
    if alpha == 0.0 {
        return Err("celu with alpha=0 divides by zero".into());
    }
    Ok(vec![elu(c, x, alpha, 1.0, 1.0 / alpha)?])
})
.samples(&["self: T[2,5]", "self: T[2,5]; alpha: 0.5", "self: T[3]; alpha: -2.0", "self: T[]; alpha: 3", "self: T[0]"])
.dtypes(&["f32", "f64", "f16", "bf16"])];
