use super::special_common::{i0, F64};
use crate::lowering::Rule;

/// `exp(-|x|) I0(x)` in float64 (the exponentially scaled I0; finite for
/// every finite x).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_i0e.default", |c| {
    let (f, x) = F64::new(c, c.args.tensor("self")?)?;
    let y = i0(&f, x)?;
    // Large |x|: I0 overflows even in float64 past ~713; scale inside the
    // asymptotic branch instead: exp(-|x|) * exp(|x|) / sqrt(|x|) * p.
    let ax = f.un("Abs", x)?;
    let small = f.cmpk("LessOrEqual", ax, 3.75)?;
    let scaled_small = f.mul(y, f.un("Exp", f.un("Neg", ax)?)?)?;
    let axf = f.op("Max", &[ax, f.k(3.75)?])?;
    let u = f.div(f.k(3.75)?, axf)?;
    let p = f.poly(
        u,
        &[
            0.398_942_28,
            0.013_285_92,
            0.002_253_19,
            -0.001_575_65,
            0.009_162_81,
            -0.020_577_06,
            0.026_355_37,
            -0.016_476_33,
            0.003_923_77,
        ],
    )?;
    let far = f.div(p, f.un("Sqrt", axf)?)?;
    let out = f.select(small, scaled_small, far)?;
    Ok(vec![c.b.cast(out, c.result_element(0)?).and_then(|v| c.op("Identity", &[v], &[]))?])
})
.samples(&["self: T[2,3]", "self: i64[2,5]{-800..800}", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
