use super::like_common::Like;
use crate::Rule;

/// Rational approximations of the inverse normal CDF (P. J. Acklam, relative
/// error below 1.2e-9 over (0, 1)): central region |p - 1/2| <= 1/2 - P_LOW,
/// tails in `q = sqrt(-2 log p)`.
const A: [f64; 6] = [
    -3.969_683_028_665_376e1,
    2.209_460_984_245_205e2,
    -2.759_285_104_469_687e2,
    1.383_577_518_672_69e2,
    -3.066_479_806_614_716e1,
    2.506_628_277_459_239,
];
const B: [f64; 5] = [
    -5.447_609_879_822_406e1,
    1.615_858_368_580_409e2,
    -1.556_989_798_598_866e2,
    6.680_131_188_771_972e1,
    -1.328_068_155_288_572e1,
];
const C: [f64; 6] = [
    -7.784_894_002_430_293e-3,
    -3.223_964_580_411_365e-1,
    -2.400_758_277_161_838,
    -2.549_732_539_343_734,
    4.374_664_141_464_968,
    2.938_163_982_698_783,
];
const D: [f64; 4] = [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
const P_LOW: f64 = 0.02425;

fn rev(c: &[f64]) -> Vec<f64> {
    c.iter().rev().copied().collect()
}

/// ndtri in float64: -inf at 0, +inf at 1, NaN outside [0, 1].
pub const RULES: &[Rule] = &[Rule::custom("aten.special_ndtri.default", |c| {
    let (f, p) = Like::float64(c, c.args.tensor("self")?)?;
    // Central.
    let q = f.addk(p, -0.5)?;
    let r = f.mul(q, q)?;
    let num = f.mul(f.poly(r, &rev(&A))?, q)?;
    let mut bb = rev(&B);
    bb.insert(0, 1.0);
    // Denominator (((((b1 r + b2) r + b3) r + b4) r + b5) r + 1).
    let den = f.poly(r, &bb)?;
    let central = f.div(num, den)?;
    // Tails: t = sqrt(-2 log(min(p, 1 - p))), x = C(t) / D(t), negated above.
    let one_minus = f.sub(f.k(1.0)?, p)?;
    let m = f.min(p, one_minus)?;
    let m = f.max(m, f.k(1e-300)?)?;
    let t = f.sqrt(f.mulk(f.log(m)?, -2.0)?)?;
    let mut dd = rev(&D);
    dd.insert(0, 1.0);
    let tail = f.div(f.poly(t, &rev(&C))?, f.poly(t, &dd)?)?;
    let upper = f.greater_k(p, 0.5)?;
    let tail = f.select(upper, f.neg(tail)?, tail)?;
    let lo = f.less_k(p, P_LOW)?;
    let hi = f.greater_k(p, 1.0 - P_LOW)?;
    let in_tail = c.b.onnx().or(lo, hi).typed(super::math_common::unranked_bool(c))?;
    let y = f.select(in_tail, tail, central)?;
    let y = f.select(f.equal_k(p, 0.0)?, f.k(f64::NEG_INFINITY)?, y)?;
    let y = f.select(f.equal_k(p, 1.0)?, f.k(f64::INFINITY)?, y)?;
    let outside = c.b.onnx().or(f.less_k(p, 0.0)?, f.greater_k(p, 1.0)?).typed(super::math_common::unranked_bool(c))?;
    let y = f.select(outside, f.k(f64::NAN)?, y)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
})
.samples(&["self: T[2,3]{pos}", "self: T[2,3]", "self: T[0]", "self: T[]"])
.dtypes(&["f32"])];
