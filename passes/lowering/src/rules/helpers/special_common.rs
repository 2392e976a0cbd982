//! Special functions ONNX has no op for (lgamma, digamma, erfinv, i0), built
//! from elementwise ONNX ops in float64 (onnxruntime has double kernels for
//! Log, Exp, Sin, Cos, Sqrt, Floor, Div, ... but not Erf, Tan or Atan, which
//! these avoid). Not a rule file.

use super::like_common::Like;
use crate::Ctx;
use melior::ir::{Type, Value};

pub fn f64_type<'c>(c: &Ctx<'c, '_>) -> Type<'c> {
    Type::float64(c.b.context)
}

/// Lanczos coefficients (g = 7, n = 9): Gamma(z + 1) =
/// sqrt(2 pi) (z + g + 1/2)^(z + 1/2) e^-(z + g + 1/2) A(z).
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// log|Gamma(x)| of a float64 `x`: Lanczos for x >= 0.5, the reflection
/// `log(pi / |sin(pi x)|) - lgamma(1 - x)` below (sin of x reduced mod 2, so
/// large negative x stay exact); +inf at the poles and at +-inf; NaN stays
/// NaN.
pub fn lgamma<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let reflect = f.less_k(x, 0.5)?;
    let one_minus = f.sub(f.k(1.0)?, x)?;
    let w = f.select(reflect, one_minus, x)?;
    let z = f.addk(w, -1.0)?;
    let mut a = f.k(LANCZOS[0])?;
    for (i, &p) in LANCZOS.iter().enumerate().skip(1) {
        let d = f.addk(z, i as f64)?;
        let term = f.div(f.k(p)?, d)?;
        a = f.add(a, term)?;
    }
    let t = f.addk(z, 7.5)?;
    let zh = f.addk(z, 0.5)?;
    let lt = f.log(t)?;
    let s = f.mul(zh, lt)?;
    let s = f.sub(s, t)?;
    let la = f.log(a)?;
    let s = f.add(s, la)?;
    let lg = f.addk(s, 0.5 * (2.0 * std::f64::consts::PI).ln())?;
    // Reflection: log(pi) - log|sin(pi r)| - lgamma(1 - x), r = x mod 2.
    let half = f.mulk(x, 0.5)?;
    let fl = f.floor(half)?;
    let r = f.sub(x, f.mulk(fl, 2.0)?)?;
    let s = f.sin(f.mulk(r, std::f64::consts::PI)?)?;
    let s = f.abs(s)?;
    let ls = f.log(s)?;
    let refl = f.sub(f.k(std::f64::consts::PI.ln())?, ls)?;
    let refl = f.sub(refl, lg)?;
    let y = f.select(reflect, refl, lg)?;
    let inf = f.k(f64::INFINITY)?;
    let pole = f.is_pole(x)?;
    let y = f.select(pole, inf, y)?;
    let ax = f.abs(x)?;
    let is_inf = f.equal(ax, inf)?;
    f.select(is_inf, inf, y)
}

/// digamma of a float64 `x`: for x >= 0.5, psi(x + 6) by its asymptotic
/// series (error below 1e-11 there) minus sum 1/(x + j), j < 6; below, the
/// reflection psi(1 - x) - pi cos(pi r) / sin(pi r) (r = x mod 1). Like
/// torch: -inf at +0 (+inf at -0), NaN at negative integers and -inf.
pub fn digamma<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let reflect = f.less_k(x, 0.5)?;
    let one_minus = f.sub(f.k(1.0)?, x)?;
    let w = f.select(reflect, one_minus, x)?;
    let y = f.addk(w, 6.0)?;
    let iy = f.div(f.k(1.0)?, y)?;
    let iy2 = f.mul(iy, iy)?;
    // ln y - 1/(2y) - sum B_2k / (2k y^2k)
    let series =
        f.poly(iy2, &[0.0, 1.0 / 12.0, -1.0 / 120.0, 1.0 / 252.0, -1.0 / 240.0, 1.0 / 132.0, -691.0 / 32760.0])?;
    let ly = f.log(y)?;
    let mut psi = f.sub(ly, f.mulk(iy, 0.5)?)?;
    psi = f.sub(psi, series)?;
    for j in 0..6 {
        let d = f.addk(w, j as f64)?;
        psi = f.sub(psi, f.div(f.k(1.0)?, d)?)?;
    }
    let fl = f.floor(x)?;
    let r = f.sub(x, fl)?;
    let pr = f.mulk(r, std::f64::consts::PI)?;
    let cot = f.div(f.cos(pr)?, f.sin(pr)?)?;
    let refl = f.sub(psi, f.mulk(cot, std::f64::consts::PI)?)?;
    let out = f.select(reflect, refl, psi)?;
    let nan = f.k(f64::NAN)?;
    let pole = f.is_pole(x)?;
    let out = f.select(pole, nan, out)?;
    // x == +-0: copysign(inf, -x).
    let zero = f.equal_k(x, 0.0)?;
    let inv = f.div(f.k(1.0)?, x)?;
    let neg_zero = f.less_k(inv, 0.0)?;
    let signed_inf = f.select(neg_zero, f.k(f64::INFINITY)?, f.k(f64::NEG_INFINITY)?)?;
    f.select(zero, signed_inf, out)
}

/// erfinv of a float64 `x` (M. Giles, "Approximating the erfinv function",
/// 2010, single-precision fit): +-inf at +-1, NaN outside [-1, 1].
pub fn erfinv<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let one = f.k(1.0)?;
    let a = f.mul(f.sub(one, x)?, f.add(one, x)?)?;
    erfinv_with(f, x, a)
}

/// erfinv of `x` given `a = (1 - x)(1 + x)` (which a caller may know more
/// exactly than `1 - x^2`, e.g. ndtri's `4 p (1 - p)`).
pub fn erfinv_with<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    // Clamp so the unused branch and |x| >= 1 stay finite; fixed below.
    let a0 = a;
    let a = f.max(a, f.k(1e-300)?)?;
    let w = f.neg(f.log(a)?)?;
    let central = f.poly(
        f.addk(w, -2.5)?,
        &[
            1.501_409_41,
            0.246_640_727,
            -0.004_177_681_64,
            -0.001_253_725_03,
            0.000_218_580_87,
            -4.391_506_54e-6,
            -3.523_387_7e-6,
            3.432_739_39e-7,
            2.810_226_36e-8,
        ],
    )?;
    let tail = f.poly(
        f.addk(f.sqrt(w)?, -3.0)?,
        &[
            2.832_976_82,
            1.001_674_06,
            0.009_438_870_47,
            -0.007_622_461_3,
            0.005_739_507_73,
            -0.003_673_428_44,
            0.001_349_343_22,
            0.000_100_950_558,
            -0.000_200_214_257,
        ],
    )?;
    let small = f.less_k(w, 5.0)?;
    let p = f.select(small, central, tail)?;
    let y = f.mul(p, x)?;
    // Poles and the domain by `a` (|x| = 1 where a == 0, |x| > 1 where a < 0).
    let is_one = f.equal_k(a0, 0.0)?;
    let signed_inf = f.mulk(x, f64::INFINITY)?;
    let y = f.select(is_one, signed_inf, y)?;
    let out = f.less_k(a0, 0.0)?;
    f.select(out, f.k(f64::NAN)?, y)
}

/// I0 (modified Bessel function of the first kind, order 0) of a float64
/// `x`: Abramowitz & Stegun 9.8.1 (|x| <= 3.75, error < 1.6e-7) and 9.8.2
/// (|x| > 3.75, relative error < 1.9e-7).
pub fn i0<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let ax = f.abs(x)?;
    let t = f.mulk(ax, 1.0 / 3.75)?;
    let t2 = f.mul(t, t)?;
    let near = f.poly(t2, &[1.0, 3.515_622_9, 3.089_942_4, 1.206_749_2, 0.265_973_2, 0.036_076_8, 0.004_581_3])?;
    let (axf, p) = i0_asymptotic_series(f, ax)?;
    let e = f.exp(axf)?;
    let s = f.sqrt(axf)?;
    let far = f.mul(f.div(e, s)?, p)?;
    let small = f.less_or_equal_k(ax, 3.75)?;
    f.select(small, near, far)
}

/// The large-|x| series of I0 (Abramowitz & Stegun 9.8.2): `(a, p)` with
/// `a = max(|x|, 3.75)` (so unused lanes stay finite) and `p` such that
/// `I0(x) ~ exp(a) / sqrt(a) * p` and `I0e(x) ~ p / sqrt(a)` for |x| > 3.75.
pub fn i0_asymptotic_series<'c, 'a>(
    f: &Like<'_, 'c, 'a>,
    ax: Value<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let axf = f.max(ax, f.k(3.75)?)?;
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
    Ok((axf, p))
}

/// erfinv in float64 (see special_common.rs), cast to the result type.
pub(super) fn erfinv_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = erfinv(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}

/// log|Gamma(x)| in float64 (Lanczos; see special_common.rs), cast to the
/// result type.
pub(super) fn lgamma_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = lgamma(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}

/// I0 in float64 (see special_common.rs), cast to the result type.
pub(super) fn i0_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let y = i0(&f, x)?;
    Ok(vec![c.b.cast(y, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}

/// The multivariate log-gamma: `p (p - 1) / 4 log(pi) + sum_j lgamma(x - j / 2)`,
/// j < p, in float64. (torch raises when some x <= (p - 1) / 2; the ONNX
/// model cannot raise and gives the formula's value there.)
pub(super) fn mvlgamma<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = c.args.int("p")?;
    if p < 1 {
        return Err(format!("mvlgamma with p = {p} (torch requires p >= 1)"));
    }
    let (f, x) = Like::float64(c, c.args.tensor("self")?)?;
    let mut sum = f.k((p * (p - 1)) as f64 / 4.0 * std::f64::consts::PI.ln())?;
    for j in 0..p {
        let xj = f.addk(x, -(j as f64) / 2.0)?;
        sum = f.add(sum, lgamma(&f, xj)?)?;
    }
    Ok(vec![c.b.cast(sum, c.result_element(0)?).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}
