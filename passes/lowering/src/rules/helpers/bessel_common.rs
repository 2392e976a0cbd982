//! Bessel-type special functions (torch.special.bessel_*, modified_bessel_*,
//! scaled_modified_bessel_*, i1, i1e, spherical_bessel_j0), built from
//! elementwise ONNX ops in float64 like special_common.rs. Not a rule file.
//!
//! The polynomial fits below were made for this file with mpmath
//! (`chebyfit`, 50 digits) on the stated intervals; their relative error
//! is below 1e-16 there (checked against mpmath on a dense grid), so the
//! float64 evaluation error dominates. Special points follow torch
//! (ATen/native/Math.h): see each function.

use super::special_common::f64_type;
use super::like_common::Like;
use crate::Ctx;
use melior::ir::{Type, Value};

/// J0(x) = J0_SMALL(x^2), |x| <= 8
const J0_SMALL: [f64; 19] = [
    1.0,
    -0.25,
    0.015625,
    -0.00043402777777777775,
    6.781684027777777e-06,
    -6.781684027777774e-08,
    4.709502797067841e-10,
    -2.4028075495237687e-12,
    9.385966990275218e-15,
    -2.8969033917448565e-17,
    7.242258464839383e-20,
    -1.4963343422895314e-22,
    2.5978012844208593e-25,
    -3.8428722409780713e-28,
    4.901161388258775e-31,
    -5.440266225784724e-34,
    5.265902487906368e-37,
    -4.2812160755179344e-40,
    2.3246181854195195e-43,
];
/// J1(x) = x J1_SMALL(x^2), |x| <= 8
const J1_SMALL: [f64; 19] = [
    0.5,
    -0.0625,
    0.0026041666666666665,
    -5.425347222222222e-05,
    6.781684027777778e-07,
    -5.65140335648148e-09,
    3.3639305693342e-11,
    -1.5017547184526038e-13,
    5.214426105724897e-16,
    -1.4484516959539957e-18,
    3.2919356689080728e-21,
    -6.2347265145489475e-24,
    9.991545339796165e-27,
    -1.372457589326982e-29,
    1.6337601715869542e-32,
    -1.7004360937175885e-35,
    1.5509286495675902e-38,
    -1.1970824420866518e-41,
    6.250277554065413e-45,
];
/// Y0(x) = Y0_SMALL(x^2) + (2/pi) ln(x) J0(x), 0 < x <= 8
const Y0_SMALL: [f64; 19] = [
    -0.07380429510868723,
    0.17760601686906713,
    -0.016073968025938426,
    0.000538602666861655,
    -9.495005205221546e-06,
    1.0358476033628088e-07,
    -7.693079900902793e-10,
    4.1435657365111535e-12,
    -1.6932715179230205e-14,
    5.431060657083829e-17,
    -1.4038708103517675e-19,
    2.987159048627148e-22,
    -5.3238544990628e-25,
    8.063646811418282e-28,
    -1.0507085260097872e-30,
    1.1892988926674098e-33,
    -1.1717031487598511e-36,
    9.671199340735242e-40,
    -5.310455682141535e-43,
];
/// Y1(x) = x Y1_SMALL(x^2) + (2/pi) (J1(x) ln(x) - 1/x), 0 < x <= 8
const Y1_SMALL: [f64; 19] = [
    -0.19605709064623894,
    0.05434868816051024,
    -0.0029553053360798338,
    7.164268749973962e-05,
    -9.926740619424822e-07,
    8.93187962122013e-09,
    -5.648024551595623e-11,
    2.6494815070083785e-13,
    -9.591486586302644e-16,
    2.7616359781806418e-18,
    -6.476490569511014e-21,
    1.2611877499584105e-23,
    -2.0721014728561158e-26,
    2.911086150123796e-29,
    -3.5371239793687813e-32,
    3.7512124942398454e-35,
    -3.4802099268246135e-38,
    2.725963844983744e-41,
    -1.4389949116773584e-44,
];
/// x >= 8, u = 64/x^2: J0 = sqrt(2/(pi x)) (P cos(x - pi/4) - Q sin(x - pi/4)), Y0 = sqrt(2/(pi x)) (P sin + Q cos), P = P0_FAR(u)
const P0_FAR: [f64; 15] = [
    1.0,
    -0.0010986328124999224,
    2.7380883687796802e-05,
    -2.183919425910452e-06,
    3.620382161889469e-07,
    -1.024326149932456e-07,
    4.4017729143135486e-08,
    -2.610615127587671e-08,
    1.8955359901794592e-08,
    -1.4491314291164316e-08,
    1.0080976851058432e-08,
    -5.6596838185237544e-09,
    2.299803060820163e-09,
    -5.879640753092059e-10,
    7.021108134944052e-11,
];
/// Q = Q0_FAR(u) / x
const Q0_FAR: [f64; 15] = [
    -0.125,
    0.0011444091796867502,
    -5.544628942274274e-05,
    6.5907556444006975e-06,
    -1.4531646487282279e-06,
    5.13190214056454e-07,
    -2.6379570133829e-07,
    1.8029153673326535e-07,
    -1.4502397065436714e-07,
    1.1847376507015868e-07,
    -8.582431886459488e-08,
    4.9391240246188914e-08,
    -2.0386719524825114e-08,
    5.266327693631826e-09,
    -6.334002499904253e-10,
];
/// the same for J1, Y1 with the phase x - 3 pi/4
const P1_FAR: [f64; 15] = [
    1.0,
    0.0018310546874999183,
    -3.520399331425915e-05,
    2.5809957084251754e-06,
    -4.1031021445046007e-07,
    1.1321654036853858e-07,
    -4.7852205020520875e-08,
    2.8061164232296928e-08,
    -2.0225115693844727e-08,
    1.5393335950475233e-08,
    -1.0680888038226233e-08,
    5.987425166136018e-09,
    -2.4307271650007552e-09,
    6.21064135692919e-10,
    -7.41335376850216e-11,
];
/// Q = Q1_FAR(u) / x
const Q1_FAR: [f64; 15] = [
    0.375,
    -0.0016021728515617122,
    6.77676870820278e-05,
    -7.604718230766905e-06,
    1.6241270941123224e-06,
    -5.620781984196204e-07,
    2.8495666762962395e-07,
    -1.9290508409888594e-07,
    1.5421300293087223e-07,
    -1.255129677702513e-07,
    9.072695385014144e-08,
    -5.214559601645544e-08,
    2.150642392457472e-08,
    -5.55266846989347e-09,
    6.675997302173228e-10,
];
/// I0(x) = I0_SMALL(x^2), |x| <= 8
const I0_SMALL: [f64; 23] = [
    1.0,
    0.25,
    0.015625,
    0.00043402777777777775,
    6.781684027777777e-06,
    6.781684027777778e-08,
    4.709502797067901e-10,
    2.4028075495244395e-12,
    9.385966990329842e-15,
    2.896903392077111e-17,
    7.24225848019279e-20,
    1.4963343967339847e-22,
    2.5978027721105124e-25,
    3.8429035089318524e-28,
    4.901662642139256e-31,
    5.446291748151267e-34,
    5.31864574956102e-37,
    4.600882359984745e-40,
    3.550328644071321e-43,
    2.4562605861107392e-46,
    1.5514229040910587e-49,
    8.033606782363566e-53,
    6.3627003222124915e-56,
];
/// I1(x) = x I1_SMALL(x^2), |x| <= 8
const I1_SMALL: [f64; 23] = [
    0.5,
    0.0625,
    0.0026041666666666665,
    5.425347222222222e-05,
    6.781684027777778e-07,
    5.651403356481481e-09,
    3.363930569334215e-11,
    1.5017547184527747e-13,
    5.214426105738801e-16,
    1.4484516960385557e-18,
    3.2919356728149018e-21,
    6.234726653058397e-24,
    9.991549123496973e-27,
    1.3724655389198555e-29,
    1.6338875469890968e-32,
    1.7019661790868072e-35,
    1.5643074505087463e-38,
    1.2780243909385422e-41,
    9.342827874828436e-45,
    6.141636755271273e-48,
    3.689126289592089e-51,
    1.8399381189277638e-54,
    1.3635640071226256e-57,
];
/// |x| > 8, v = 8/|x|: I0(x) = exp(|x|) / sqrt(|x|) I0_FAR(v)
const I0_FAR: [f64; 23] = [
    0.3989422804014327,
    0.006233473131262672,
    0.00043829108125822356,
    5.706903014318292e-05,
    1.0927918056261565e-05,
    2.660781503256634e-06,
    2.4790402883167792e-06,
    -1.7257358411381738e-05,
    0.00014185862063324504,
    -0.0008642913780102672,
    0.0040669758158161755,
    -0.014954338242435741,
    0.0433264116012903,
    -0.09930596955619408,
    0.18009904215884992,
    -0.25746559955012743,
    0.28775108003052513,
    -0.247951980254461,
    0.16115242264504226,
    -0.07628739967702916,
    0.02479851420055745,
    -0.004946732027962788,
    0.0004564239425667149,
];
/// |x| > 8: |I1(x)| = exp(|x|) / sqrt(|x|) I1_FAR(v)
const I1_FAR: [f64; 23] = [
    0.39894228040143265,
    -0.018700419393806605,
    -0.0007304851344339821,
    -7.98966802825771e-05,
    -1.4049264663890154e-05,
    -3.266723732408937e-06,
    -2.765135469077418e-06,
    1.856140921337216e-05,
    -0.00015242942065105608,
    0.0009263122476636002,
    -0.004347608236147105,
    0.015944639489659202,
    -0.046075925137500966,
    0.10533880645053749,
    -0.19056544723505672,
    0.2717736829616532,
    -0.3030414232673048,
    0.2605523239447968,
    -0.16898758494287802,
    0.0798382871072217,
    -0.02590447705482271,
    0.0051583182483779235,
    -0.00047516802365472427,
];
/// 0 < x <= 2: K0(x) = K0_SMALL(x^2) - ln(x/2) I0(x)
const K0_SMALL: [f64; 13] = [
    -0.5772156649015329,
    0.10569608377461678,
    0.014418505235913549,
    0.0005451899602568578,
    1.0214014135957849e-05,
    1.1570350941513398e-07,
    8.819883064451893e-10,
    4.843198560314284e-12,
    2.0091990276228283e-14,
    6.523108822084759e-17,
    1.7032206160605346e-19,
    3.651971156967618e-22,
    6.827111378132819e-25,
];
/// 0 < x <= 2: K1(x) = x K1_SMALL(x^2) + 1/x + ln(x/2) I1(x)
const K1_SMALL: [f64; 13] = [
    0.03860783245076643,
    -0.042049020943654196,
    -0.002837111983763369,
    -7.493042905988501e-05,
    -1.0892182538735626e-06,
    -1.0112909397634624e-08,
    -6.540197229560688e-11,
    -3.1208587701134553e-13,
    -1.1451907154282005e-15,
    -3.333977119466267e-18,
    -7.891526129107261e-21,
    -1.547802142068286e-23,
    -2.658133631099248e-26,
];
/// x > 2, v = 2/x: K0(x) = exp(-x) / sqrt(x) K0_FAR(v)
const K0_FAR: [f64; 23] = [
    1.2533141373155001,
    -0.07833213358218451,
    0.02203091256388657,
    -0.01147443319140021,
    0.008785096324455009,
    -0.008894520797117993,
    0.011204667257359078,
    -0.016838308555750994,
    0.029029303262052743,
    -0.05467493981123691,
    0.1058361616670146,
    -0.19772127629786113,
    0.3380161974477797,
    -0.508140635787823,
    0.6524745529564797,
    -0.6994847344386408,
    0.6132563408785031,
    -0.429992149371905,
    0.23446432979410123,
    -0.09556585660695967,
    0.0273465860232842,
    -0.004893801433407121,
    0.00041168779907367544,
];
/// x > 2: K1(x) = exp(-x) / sqrt(x) K1_FAR(v)
const K1_FAR: [f64; 23] = [
    1.2533141373155003,
    0.23499640074661907,
    -0.03671818761002186,
    0.016064206605439446,
    -0.011295127217093255,
    0.010871136235898193,
    -0.01324251731177489,
    0.019434211097929456,
    -0.03293429323554595,
    0.06127666987126373,
    -0.11763018003926476,
    0.21854962496785652,
    -0.37228662256437073,
    0.5583377784141418,
    -0.715783475070251,
    0.7664978052965831,
    -0.6714670969247377,
    0.47052563734921593,
    -0.2564491891664806,
    0.10448948744408408,
    -0.02989164011152273,
    0.005348021014366095,
    -0.00044981358470963956,
];

const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;

/// What a unary special function gets: the builder, the input in float64
/// (`x`), the input in the result's element type (`x_res`, for the pieces
/// torch computes in that precision) and whether that type is float32.
pub struct Input<'x, 'c, 'a> {
    pub f: Like<'x, 'c, 'a>,
    pub x: Value<'c, 'a>,
    pub x_res: Value<'c, 'a>,
    pub f32: bool,
}

/// Lowers a unary special function: the input is cast to the result type
/// (torch promotes integers to the default float type), then to float64,
/// `body` computes in float64, and the result is cast back.
pub fn unary<'c, 'a>(
    c: &Ctx<'c, 'a>,
    body: impl for<'x> Fn(&Input<'x, 'c, 'a>) -> Result<Value<'c, 'a>, String>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let out = c.result_element(0)?;
    let f32 = out == Type::float32(c.b.context);
    if !f32 && out != f64_type(c) {
        return Err(format!("result type {out}: only float32 and float64 are lowered"));
    }
    // Most of these ops name their operand `self`, a few `x`.
    let operand = c.args.tensor("self").or_else(|_| c.args.tensor("x"))?;
    let x_res = c.b.cast_like_type(operand, out)?;
    let (f, x) = Like::float64(c, x_res)?;
    let input = Input { f, x, x_res, f32 };
    let y = body(&input)?;
    let y = input.f.select(input.f.is_nan(x)?, input.f.k(f64::NAN)?, y)?;
    Ok(vec![c.b.cast(y, out).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}

impl<'x, 'c, 'a> Input<'x, 'c, 'a> {
    /// `x - shift` rounded in the result's precision (torch computes its
    /// phases so), as float64; `x` is given in the result type.
    pub fn phase(&self, x_res: Value<'c, 'a>, shift: f64) -> Result<Value<'c, 'a>, String> {
        let c = self.f.ctx;
        let k = c.b.const_like(x_res, shift)?;
        let d = c.b.onnx().sub(x_res, k).like(x_res)?;
        c.b.cast_like_type(d, f64_type(c))
    }

    /// `|x|` in the result type.
    pub fn abs_res(&self) -> Result<Value<'c, 'a>, String> {
        self.f.ctx.b.onnx().abs(self.x_res).like(self.x_res)
    }

    /// ln of the largest finite value of the result type: torch's
    /// `exp(|x|) * ...` is +inf beyond it.
    pub fn ln_max(&self) -> f64 {
        if self.f32 {
            (f32::MAX as f64).ln()
        } else {
            f64::MAX.ln()
        }
    }
}

/// J0 or J1 (order 0 or 1) of |x| (J1's sign is the caller's), from the
/// float64 `ax = |x|` and `ax` in the result type for the phase.
fn bessel_j_abs<'c, 'a>(
    i: &Input<'_, 'c, 'a>,
    ax: Value<'c, 'a>,
    ax_res: Value<'c, 'a>,
    order: u8,
) -> Result<Value<'c, 'a>, String> {
    let f = &i.f;
    let t = f.mul(ax, ax)?;
    let near = if order == 0 { f.poly(t, &J0_SMALL)? } else { f.mul(ax, f.poly(t, &J1_SMALL)?)? };
    let (far, _) = far_jy(i, ax, ax_res, order)?;
    let small = f.less_or_equal_k(ax, 8.0)?;
    let y = f.select(small, near, far)?;
    let inf = f.equal_k(ax, f64::INFINITY)?;
    f.select(inf, f.k(f64::NAN)?, y)
}

/// The large-argument forms of J_n and Y_n (n = 0, 1) at `max(ax, 8)`:
/// `sqrt(2/(pi x)) (P cos(phi) - Q sin(phi))` and `... (P sin + Q cos)`,
/// `phi = x - (2n+1) pi/4` rounded in the result type like torch.
fn far_jy<'c, 'a>(
    i: &Input<'_, 'c, 'a>,
    ax: Value<'c, 'a>,
    ax_res: Value<'c, 'a>,
    order: u8,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let f = &i.f;
    let c = f.ctx;
    let xf = f.max(ax, f.k(8.0)?)?;
    let xf_res = c.b.onnx().max(&[ax_res, c.b.const_like(ax_res, 8.0)?]).like(ax_res)?;
    let u = f.div(f.k(64.0)?, f.mul(xf, xf)?)?;
    let (pc, qc): (&[f64], &[f64]) = if order == 0 { (&P0_FAR, &Q0_FAR) } else { (&P1_FAR, &Q1_FAR) };
    let p = f.poly(u, pc)?;
    let q = f.div(f.poly(u, qc)?, xf)?;
    let shift = if order == 0 { std::f64::consts::FRAC_PI_4 } else { 3.0 * std::f64::consts::FRAC_PI_4 };
    let phi = i.phase(xf_res, shift)?;
    let (cs, sn) = (f.cos(phi)?, f.sin(phi)?);
    let amp = f.sqrt(f.div(f.k(TWO_OVER_PI)?, xf)?)?;
    let j = f.mul(amp, f.sub(f.mul(p, cs)?, f.mul(q, sn)?)?)?;
    let y = f.mul(amp, f.add(f.mul(p, sn)?, f.mul(q, cs)?)?)?;
    Ok((j, y))
}

/// torch.special.bessel_j0: even; NaN at +-inf.
pub fn bessel_j0<'c, 'a>(i: &Input<'_, 'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let ax = i.f.abs(i.x)?;
    bessel_j_abs(i, ax, i.abs_res()?, 0)
}

/// torch.special.bessel_j1: odd (J1(-0) = -0); NaN at +-inf.
pub fn bessel_j1<'c, 'a>(i: &Input<'_, 'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let f = &i.f;
    let ax = f.abs(i.x)?;
    let y = bessel_j_abs(i, ax, i.abs_res()?, 1)?;
    // Near 0 J1 = x * poly keeps the sign of zero; elsewhere flip for x < 0.
    let neg = f.less_k(i.x, 0.0)?;
    f.select(neg, f.neg(y)?, y)
}

/// torch.special.bessel_y0 / y1: -inf at +-0, NaN for x < 0 and at +inf.
pub fn bessel_y<'c, 'a>(i: &Input<'_, 'c, 'a>, order: u8) -> Result<Value<'c, 'a>, String> {
    let f = &i.f;
    // Keep unused lanes finite: x <= 0 is replaced below.
    let x = f.max(i.x, f.k(1e-300)?)?;
    let t = f.mul(x, x)?;
    let lx = f.log(x)?;
    let near = if order == 0 {
        let j0 = f.poly(t, &J0_SMALL)?;
        f.add(f.poly(t, &Y0_SMALL)?, f.mulk(f.mul(lx, j0)?, TWO_OVER_PI)?)?
    } else {
        let j1 = f.mul(x, f.poly(t, &J1_SMALL)?)?;
        let inv = f.div(f.k(1.0)?, x)?;
        let log_part = f.mulk(f.sub(f.mul(j1, lx)?, inv)?, TWO_OVER_PI)?;
        f.add(f.mul(x, f.poly(t, &Y1_SMALL)?)?, log_part)?
    };
    let (_, far) = far_jy(i, x, i.x_res, order)?;
    let small = f.less_or_equal_k(x, 8.0)?;
    let y = f.select(small, near, far)?;
    let y = f.select(f.equal_k(i.x, f64::INFINITY)?, f.k(f64::NAN)?, y)?;
    let y = f.select(f.less_k(i.x, 0.0)?, f.k(f64::NAN)?, y)?;
    f.select(f.equal_k(i.x, 0.0)?, f.k(f64::NEG_INFINITY)?, y)
}

/// `(exp(|x|) / sqrt(|x|) * g, g / sqrt(|x|))` for |x| > 8 (I0_FAR or
/// I1_FAR), evaluated at `max(|x|, 8)`; exp(|x|) is split in two halves so
/// values just below the float64 limit stay finite.
fn i_far<'c, 'a>(
    f: &Like<'_, 'c, 'a>,
    ax: Value<'c, 'a>,
    coefficients: &[f64],
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let xf = f.max(ax, f.k(8.0)?)?;
    let g = f.poly(f.div(f.k(8.0)?, xf)?, coefficients)?;
    let scaled = f.div(g, f.sqrt(xf)?)?;
    let half = f.exp(f.mulk(xf, 0.5)?)?;
    Ok((f.mul(half, f.mul(half, scaled)?)?, scaled))
}

/// I0 or I1 of a float64 `x` (order 1 keeps the sign), and the
/// exponentially scaled value `exp(-|x|) I`. torch's conventions: NaN at
/// +-inf, +-inf once exp(|x|) overflows the result type.
pub fn bessel_i<'c, 'a>(i: &Input<'_, 'c, 'a>, order: u8, scaled: bool) -> Result<Value<'c, 'a>, String> {
    let f = &i.f;
    let ax = f.abs(i.x)?;
    let t = f.mul(ax, ax)?;
    let near = if order == 0 { f.poly(t, &I0_SMALL)? } else { f.mul(i.x, f.poly(t, &I1_SMALL)?)? };
    let (far, far_scaled) = i_far(f, ax, if order == 0 { &I0_FAR } else { &I1_FAR })?;
    let small = f.less_or_equal_k(ax, 8.0)?;
    let (near, far) = if scaled { (f.mul(near, f.exp(f.neg(ax)?)?)?, far_scaled) } else { (near, far) };
    let far = if order == 1 {
        let neg = f.less_k(i.x, 0.0)?;
        f.select(neg, f.neg(far)?, far)?
    } else {
        far
    };
    let y = f.select(small, near, far)?;
    if scaled {
        // i1e: +-0 at +-inf (the far form gives it).
        return Ok(y);
    }
    // exp(|x|) overflows the result type in torch: +-inf (the sign of I1).
    let over = f.greater_k(ax, i.ln_max())?;
    let signed_inf = if order == 0 {
        f.k(f64::INFINITY)?
    } else {
        f.select(f.less_k(i.x, 0.0)?, f.k(f64::NEG_INFINITY)?, f.k(f64::INFINITY)?)?
    };
    let y = f.select(over, signed_inf, y)?;
    f.select(f.equal_k(ax, f64::INFINITY)?, f.k(f64::NAN)?, y)
}

/// K0 or K1 (or `exp(x) K`, scaled): +inf at +-0, NaN for x < 0, 0 at +inf.
pub fn bessel_k<'c, 'a>(i: &Input<'_, 'c, 'a>, order: u8, scaled: bool) -> Result<Value<'c, 'a>, String> {
    let f = &i.f;
    let x = f.max(i.x, f.k(1e-300)?)?;
    let xs = f.min(x, f.k(2.0)?)?;
    let t = f.mul(xs, xs)?;
    let lh = f.log(f.mulk(xs, 0.5)?)?;
    let near = if order == 0 {
        let i0 = f.poly(t, &I0_SMALL)?;
        f.sub(f.poly(t, &K0_SMALL)?, f.mul(lh, i0)?)?
    } else {
        let i1 = f.mul(xs, f.poly(t, &I1_SMALL)?)?;
        let v = f.add(f.mul(xs, f.poly(t, &K1_SMALL)?)?, f.div(f.k(1.0)?, xs)?)?;
        f.add(v, f.mul(lh, i1)?)?
    };
    let xf = f.max(x, f.k(2.0)?)?;
    let g = f.poly(f.div(f.k(2.0)?, xf)?, if order == 0 { &K0_FAR } else { &K1_FAR })?;
    let far_scaled = f.div(g, f.sqrt(xf)?)?;
    let (near, far) = if scaled {
        (f.mul(near, f.exp(xs)?)?, far_scaled)
    } else {
        (near, f.mul(far_scaled, f.exp(f.neg(xf)?)?)?)
    };
    let small = f.less_or_equal_k(x, 2.0)?;
    let y = f.select(small, near, far)?;
    let y = f.select(f.less_k(i.x, 0.0)?, f.k(f64::NAN)?, y)?;
    f.select(f.equal_k(i.x, 0.0)?, f.k(f64::INFINITY)?, y)
}

/// sin(x)/x (its Taylor polynomial for |x| < 1/2); 1 at 0, 0 at +-inf.
pub fn spherical_j0<'c, 'a>(i: &Input<'_, 'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let f = &i.f;
    let t = f.mul(i.x, i.x)?;
    let mut coefficients = vec![];
    let mut fact = 1.0;
    for k in 0..9 {
        if k > 0 {
            fact *= ((2 * k) * (2 * k + 1)) as f64;
        }
        coefficients.push(if k % 2 == 0 { 1.0 } else { -1.0 } / fact);
    }
    let near = f.poly(t, &coefficients)?;
    let xs = f.select(f.equal_k(i.x, 0.0)?, f.k(1.0)?, i.x)?;
    let far = f.div(f.sin(xs)?, xs)?;
    let ax = f.abs(i.x)?;
    let y = f.select(f.less_k(ax, 0.5)?, near, far)?;
    f.select(f.equal_k(ax, f64::INFINITY)?, f.k(0.0)?, y)
}
