use super::special_common::{i0, i0_asymptotic_series};
use super::like_common::Like;
use crate::Rule;

/// `exp(-|x|) I0(x)` in float64 (the exponentially scaled I0; finite for
/// every finite x).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_i0e.default", |c| {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = i0(&f, x)?;
    // Large |x|: I0 overflows even in float64 past ~713; scale inside the
    // asymptotic branch instead: exp(-|x|) * exp(|x|) / sqrt(|x|) * p.
    let ax = f.abs(x)?;
    let small = f.less_or_equal_k(ax, 3.75)?;
    let scaled_small = f.mul(y, f.exp(f.neg(ax)?)?)?;
    let (axf, p) = i0_asymptotic_series(&f, ax)?;
    let far = f.div(p, f.sqrt(axf)?)?;
    let out = f.select(small, scaled_small, far)?;
    Ok(vec![c.b.cast(out, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
})
.samples(&["self: T[2,3]", "self: i64[2,5]{-800..800}", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
