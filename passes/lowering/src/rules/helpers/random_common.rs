//! Random numbers from ONNX `Dropout` (training mode).
//!
//! onnxruntime 1.32 has no CPU kernels for the opset-22 versions of
//! `RandomUniform`, `RandomNormal`, `RandomUniformLike`, `RandomNormalLike`,
//! `Multinomial` and `Bernoulli` (a function over `RandomUniformLike`): a
//! model importing opset 22 or later with any of them does not load (seen;
//! also with a model-local function importing opset 21: ORT resolves it
//! against the model's opset). `Dropout` with `training_mode = true` runs at
//! every opset; its mask is a Bernoulli draw with `P(true) = 1 - ratio`. All
//! random values here come from such masks, at every opset, so one
//! construction is tested everywhere.
//!
//! onnxruntime draws both `Dropout` masks and the older `Random*` ops from a
//! `minstd_rand0` engine seeded with consecutive seeds (one per kernel or per
//! call), so two draws are shifted copies of each other: two `RandomUniformLike`
//! nodes give first elements equal to 5 digits, and the mask bit at a given
//! position of two `Dropout` calls (consecutive runs, or two nodes) is
//! correlated with a coefficient spread over [-1, 1] (mean |corr| 0.5 over
//! positions, seen). Uniforms are therefore made from `2K` fair mask bits per
//! value, mixed into `K` bits by a fixed GF(2) matrix `[I | R]` (each output
//! bit is the XOR of about `K/2 + 1` input bits, so those correlations
//! multiply away: measured at noise level), then weighted `2^-k`. `K` is the
//! significand width of the result type (24 for float32, 53 for float64), so
//! every value is exactly representable and `U < 1` holds: torch's own
//! lattice for `rand`. Cost: `2K` mask elements per value.
//!
//! The dropout ops themselves (`dropout`, `native_dropout`, ...) draw their
//! keep masks as `U < 1 - p` from such uniforms too ([`keep_mask`]), not as
//! one bare `Dropout` mask element per value: those repeat from run to run
//! (see above), which an MC-dropout loop would average into a wrong answer.
//!
//! No seed attribute: every run draws new values; torch's generator state
//! cannot be reproduced. Tested on shape, dtype, range and moments
//! (tests/integration/random.rs), not differentially.

use crate::{builder, Ctx, IntArg};
use melior::ir::{
    r#type::{IntegerType, RankedTensorType},
    Attribute, Type, Value, ValueLike,
};

/// The significand width (with the implicit bit) of a float type: the
/// number of random bits a uniform of that type gets.
pub fn significand_bits(element: Type<'_>) -> Result<usize, String> {
    if !builder::is_float(element) {
        return Err(format!("random values of element type {element} are not supported (floating types only)"));
    }
    match crate::onnx_ir::data_type_code(element) {
        Some(1) => Ok(24),
        Some(11) => Ok(53),
        Some(10) => Ok(11),
        Some(16) => Ok(8),
        _ => Err(format!("random values of element type {element} are not supported")),
    }
}

/// The type random values of `element` are computed in: float64 for
/// float64, float32 otherwise.
pub fn compute_type<'c>(ctx: &Ctx<'c, '_>, element: Type<'c>) -> Result<Type<'c>, String> {
    Ok(if significand_bits(element)? > 24 { Type::float64(ctx.b.context) } else { ctx.b.f32_type() })
}

fn bool_type<'c>(ctx: &Ctx<'c, '_>) -> Type<'c> {
    IntegerType::new(ctx.b.context, 1).into()
}

/// A bool mask of `shape` (1-D int64), true with probability `keep`
/// (`0 < keep <= 1`), independent from run to run: `U < keep` with `U` a
/// decorrelated 24-bit uniform ([`uniform_bits`]). A bare `Dropout` mask
/// (one element per value) is what the dropout ops would naturally lower
/// to, but onnxruntime's masks of consecutive runs are shifted copies of
/// each other (lag-1 correlation of a position's keep bit: mean |corr| 0.5,
/// up to 0.98; seen): an MC-dropout loop would average nearly the same mask.
/// Cost: 48 mask bits and two small MatMuls per value, in training graphs only.
pub fn keep_mask<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, keep: f64) -> Result<Value<'c, 'a>, String> {
    if !(keep > 0.0 && keep <= 1.0) {
        return Err(format!("internal: keep probability {keep} outside (0, 1]"));
    }
    let b = &ctx.b;
    let f32_type = b.f32_type();
    let u = uniform_bits(ctx, shape, 24, false, f32_type)?;
    // U is on the lattice j 2^-24 and below 1: P(U < keep) = ceil(keep 2^24) 2^-24.
    let threshold = b.const_scalar(f32_type, keep)?;
    b.onnx().less(u, threshold).typed(b.unranked(bool_type(ctx)))
}

/// Raw random bits: a bool mask of `shape` (1-D int64), true with
/// probability `keep`: the mask of `Dropout(ones, 1 - keep, training_mode = true)`.
///
/// The mask is drawn flat with one extra leading element, which is dropped:
/// onnxruntime seeds a fresh `minstd_rand0` per call with consecutive seeds,
/// so the first element of every mask is the same from run to run (its
/// uniform moves by about 1e-5 per call: a fixed keep or drop, seen with the
/// OpInfo sweep's distribution check on dropout inside attention).
fn raw_mask<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, keep: f64) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let f32_type = b.f32_type();
    let i64_type = b.i64_type();
    // 1 + prod(shape), as a 1-D shape; the leading 1 keeps ReduceProd off an
    // empty input for 0-d shapes.
    let one = b.const_i64s(&[1])?;
    let dims = b.onnx().concat(&[one, shape], 0).typed(b.unranked(i64_type))?;
    let count = b.onnx().reduce_prod(dims, None, None, Some(1), None).typed(b.unranked(i64_type))?;
    let count = b.onnx().add(count, one).typed(b.unranked(i64_type))?;
    let ones = super::tensor_common::full(ctx, count, f32_type, 1.0)?;
    let ratio = b.const_scalar(f32_type, 1.0 - keep)?;
    let training = b.const_scalar(bool_type(ctx), 1.0)?;
    let out = b
        .onnx()
        .dropout(ones, Some(ratio), Some(training), None)
        .results(&[b.unranked(f32_type), b.unranked(bool_type(ctx))])?;
    let end = b.const_i64s(&[i64::MAX])?;
    let zero = b.const_i64s(&[0])?;
    let rest = b.onnx().slice(out[1], one, end, Some(zero), None).typed(b.unranked(bool_type(ctx)))?;
    // allowzero: a 0 in `shape` is a zero-size dimension, not "copy".
    b.onnx().reshape(rest, shape, Some(1)).typed(b.unranked(bool_type(ctx)))
}

/// `values` (row-major) as a constant of `dims` and float type `element`.
fn float_constant<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    element: Type<'c>,
    dims: &[u64],
    values: &[f64],
) -> Result<Value<'c, 'a>, String> {
    let ty = RankedTensorType::new(dims, element, None).into();
    let elements: Vec<Attribute> =
        values.iter().map(|v| crate::builder::float_attr(ctx.b.context, element, *v).into()).collect();
    ctx.b.constant(ty, &elements)
}

/// The fixed mixing matrix `[I | R]` (`k` x `2k`, GF(2)), transposed to
/// `2k` x `k` for `MatMul`; `R` from splitmix64 with a fixed seed.
fn mixing_matrix(k: usize) -> Vec<f64> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ k as u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let m = 2 * k;
    let mut at = vec![0.0; m * k];
    for out in 0..k {
        at[out * k + out] = 1.0;
        for input in k..m {
            if next() >> 63 == 1 {
                at[input * k + out] = 1.0;
            }
        }
    }
    at
}

/// Uniform values on the lattice `j * 2^-bits` in `[0, 1)` (`open`: on
/// `(2j + 1) * 2^-bits`, in `(0, 1)`), of `shape`, in `compute` (float32
/// for `bits <= 24`, float64 otherwise).
fn uniform_bits<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    shape: Value<'c, 'a>,
    bits: usize,
    open: bool,
    compute: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let f32_type = b.f32_type();
    let m = 2 * bits;
    let extra = b.const_i64s(&[m as i64])?;
    let full_shape = b.onnx().concat(&[shape, extra], 0).typed(b.unranked(b.i64_type()))?;
    let mask = raw_mask(ctx, full_shape, 0.5)?;
    let mask = b.cast(mask, f32_type)?;
    // counts[..., o] = sum of the input bits output bit o mixes; parity = XOR.
    let at = float_constant(ctx, f32_type, &[m as u64, bits as u64], &mixing_matrix(bits))?;
    let counts = b.onnx().mat_mul(mask, at).typed(b.unranked(f32_type))?;
    let two = b.const_scalar(f32_type, 2.0)?;
    let parity = b.onnx().mod_(counts, two, Some(1)).typed(b.unranked(f32_type))?;
    let parity = if compute == f32_type { parity } else { b.cast(parity, compute)? };
    let weights: Vec<f64> = (1..=bits).map(|k| if open && k == bits { 0.0 } else { (-(k as f64)).exp2() }).collect();
    let w = float_constant(ctx, compute, &[bits as u64], &weights)?;
    let u = b.onnx().mat_mul(parity, w).typed(b.unranked(compute))?;
    if !open {
        return Ok(u);
    }
    let half = b.const_scalar(compute, (-(bits as f64)).exp2())?;
    b.onnx().add(u, half).typed(b.unranked(compute))
}

/// `U[0, 1)` of `shape` (1-D int64) and float type `element`, with the
/// significand width of `element` in random bits (exactly representable,
/// never 1).
pub fn uniform<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let bits = significand_bits(element)?;
    let compute = compute_type(ctx, element)?;
    let u = uniform_bits(ctx, shape, bits, false, compute)?;
    ctx.b.cast_like_type(u, element)
}

/// `U[0, 1)` shaped like `like`, of float type `element`.
pub fn uniform_like<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    like: Value<'c, 'a>,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let shape = ctx.b.shape(like)?;
    uniform(ctx, shape, element)
}

/// Uniform values in `(0, 1)` (never 0 or 1, for logarithms and poles) of
/// `shape`, in the compute type of `element` ([`compute_type`]).
/// At least 24 random bits (float16 results are computed in float32), so
/// the tails of the transforms (`-ln u` up to 16.6) do not depend on the
/// result's width.
pub fn open_uniform<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    shape: Value<'c, 'a>,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    uniform_bits(ctx, shape, significand_bits(element)?.max(24), true, compute_type(ctx, element)?)
}

/// A draw of a distribution given as a transform of `(0, 1)` uniforms,
/// shaped like `like` and of element type `element`: `transform(u)` is built
/// in the compute type of `element` (float64 for integer results, whose
/// uniforms get 53 bits), then cast.
pub fn transformed_like<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    like: Value<'c, 'a>,
    element: Type<'c>,
    transform: impl FnOnce(Value<'c, 'a>, Type<'c>) -> Result<Value<'c, 'a>, String>,
) -> Result<Value<'c, 'a>, String> {
    let shape = ctx.b.shape(like)?;
    let (u, compute) = if builder::is_float(element) {
        (open_uniform(ctx, shape, element)?, compute_type(ctx, element)?)
    } else {
        let f64_type = Type::float64(ctx.b.context);
        (uniform_bits(ctx, shape, 53, true, f64_type)?, f64_type)
    };
    let y = transform(u, compute)?;
    ctx.b.cast_like_type(y, element)
}

/// Uniform values in `[0, 1)` with `bits` random bits (up to 53), in float64.
pub fn uniform_f64_bits<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, bits: usize) -> Result<Value<'c, 'a>, String> {
    uniform_bits(ctx, shape, bits.clamp(1, 53), false, Type::float64(ctx.b.context))
}

/// `N(0, 1)` of `shape` in the compute type of `element` (Box–Muller:
/// `sqrt(-2 ln u1) * cos(2 pi u2)`, `u1` in `(0, 1)`, `u2` in `[0, 1)`; the
/// tails end at `sqrt(2 ln 2^K)`, 5.8 for float32).
pub fn standard_normal<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    shape: Value<'c, 'a>,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let compute = compute_type(ctx, element)?;
    let bits = significand_bits(element)?.max(24);
    let u1 = uniform_bits(ctx, shape, bits, true, compute)?;
    let u2 = uniform_bits(ctx, shape, bits, false, compute)?;
    let ln = b.onnx().log(u1).typed(b.unranked(compute))?;
    let minus_two = b.const_scalar(compute, -2.0)?;
    let r2 = b.onnx().mul(ln, minus_two).typed(b.unranked(compute))?;
    let r = b.onnx().sqrt(r2).typed(b.unranked(compute))?;
    let two_pi = b.const_scalar(compute, 2.0 * std::f64::consts::PI)?;
    let theta = b.onnx().mul(u2, two_pi).typed(b.unranked(compute))?;
    let c = b.onnx().cos(theta).typed(b.unranked(compute))?;
    b.onnx().mul(r, c).typed(b.unranked(compute))
}

/// `N(0, 1)` of `shape` and float type `element`.
pub fn normal<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let z = standard_normal(ctx, shape, element)?;
    ctx.b.cast_like_type(z, element)
}

/// `N(0, 1)` shaped like `like`, of float type `element`.
pub fn normal_like<'c, 'a>(ctx: &Ctx<'c, 'a>, like: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let shape = ctx.b.shape(like)?;
    normal(ctx, shape, element)
}

/// The element type of a value.
pub fn element_of<'c>(v: Value<'c, '_>) -> Result<Type<'c>, String> {
    builder::element_type(v.r#type()).ok_or_else(|| "not a tensor".to_string())
}

/// Which of torch's `_dropout_impl` variants.
#[derive(Clone, Copy, PartialEq)]
pub enum DropoutKind {
    /// `dropout`: each element kept with probability `1 - p`, scaled by `1 / (1 - p)`.
    Plain,
    /// `feature_dropout`: one draw per `(N, C)` channel, shared by its elements.
    Feature,
    /// `alpha_dropout`: dropped elements take SELU's negative saturation, then an affine correction.
    Alpha,
    /// `feature_alpha_dropout`: both.
    FeatureAlpha,
}

/// torch's `_dropout_impl` (aten/src/ATen/native/Dropout.cpp) for `train`:
/// `p == 0` (or eval mode) is the input; `p == 1` is `input * 0` (NaN stays
/// NaN); otherwise a `bernoulli(1 - p)` noise of the input's shape (of
/// `[N, C, 1, ...]` for the feature variants, which need rank >= 2) and
/// `input * noise / (1 - p)`, or for the alpha variants, with
/// `alpha = 1.7580993408473766`, `a = 1 / sqrt((alpha^2 p + 1)(1 - p))`:
/// `input * (noise * a) + ((noise - 1) * alpha * a + alpha * a * p)`.
/// `rank` is the input's rank (from the aten operand's type).
pub fn torch_dropout<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    rank: Option<usize>,
    p: f64,
    train: bool,
    kind: DropoutKind,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("dropout probability has to be between 0 and 1, but got {p}"));
    }
    if p == 0.0 || !train {
        return Ok(x);
    }
    let element = element_of(x)?;
    significand_bits(element)?;
    if p == 1.0 {
        let zero = b.const_scalar(element, 0.0)?;
        return b.onnx().mul(x, zero).like(x);
    }
    let feature = matches!(kind, DropoutKind::Feature | DropoutKind::FeatureAlpha);
    if feature {
        match rank {
            Some(r) if r < 2 => {
                return Err(format!("Feature dropout requires at least 2 dimensions in the input (got rank {r})"))
            }
            None => return Err("feature dropout of an input of unknown rank".into()),
            _ => {}
        }
    }
    let shape = if feature {
        let nc = super::tensor_common::shape_part(ctx, x, 0, Some(2))?;
        let ones = b.const_i64s(&vec![1; rank.unwrap_or(2) - 2])?;
        if rank == Some(2) {
            nc
        } else {
            b.onnx().concat(&[nc, ones], 0).typed(b.unranked(b.i64_type()))?
        }
    } else {
        b.shape(x)?
    };
    let mask = keep_mask(ctx, shape, 1.0 - p)?;
    let noise = b.cast(mask, element)?;
    if matches!(kind, DropoutKind::Plain | DropoutKind::Feature) {
        let scale = b.const_scalar(element, 1.0 / (1.0 - p))?;
        let noise = b.onnx().mul(noise, scale).like(x)?;
        return b.onnx().mul(x, noise).like(x);
    }
    let alpha = 1.7580993408473766_f64;
    let a = 1.0 / ((alpha * alpha * p + 1.0) * (1.0 - p)).sqrt();
    let one = b.const_scalar(element, 1.0)?;
    let minus_one = b.onnx().sub(noise, one).like(x)?;
    let alpha_a = b.const_scalar(element, alpha * a)?;
    let shifted = b.onnx().mul(minus_one, alpha_a).like(x)?;
    let alpha_a_p = b.const_scalar(element, alpha * a * p)?;
    let bias = b.onnx().add(shifted, alpha_a_p).like(x)?;
    let a = b.const_scalar(element, a)?;
    let noise = b.onnx().mul(noise, a).like(x)?;
    let scaled = b.onnx().mul(x, noise).like(x)?;
    b.onnx().add(scaled, bias).like(x)
}

/// Integers uniform in `[low, high)` of `shape`, cast to the result type:
/// `floor(low + U * (high - low))` in double, clamped below `high`. `U` has
/// `log2(high - low) + 24` random bits (53 when the range is dynamic), so
/// each value's probability is within `2^-24` (relative) of `1 / (high - low)`.
pub fn randint<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    low: Option<IntArg<'c, 'a>>,
    high: IntArg<'c, 'a>,
    shape: Value<'c, 'a>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let f64_type = Type::float64(b.context);
    let low = low.unwrap_or(IntArg::Static(0));
    let bits = match (low, high) {
        (IntArg::Static(l), IntArg::Static(h)) => {
            if l >= h {
                return Err(format!("random_ expects 'from' to be less than 'to', but got from={l} >= to={h}"));
            }
            let span = (h as i128 - l as i128) as f64;
            (span.log2().ceil() as usize + 24).min(53)
        }
        _ => 53,
    };
    let bound = |v: IntArg<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        match v {
            IntArg::Static(v) => b.const_scalar(f64_type, v as f64),
            dynamic => ctx.int_scalar(dynamic, f64_type),
        }
    };
    let lo = bound(low)?;
    let hi = bound(high)?;
    let u = uniform_f64_bits(ctx, shape, bits)?;
    let span = b.onnx().sub(hi, lo).like(lo)?;
    let scaled = b.onnx().mul(u, span).like(u)?;
    let shifted = b.onnx().add(scaled, lo).like(u)?;
    let floored = b.onnx().floor(shifted).like(u)?;
    let one = b.const_scalar(f64_type, 1.0)?;
    let top = b.onnx().sub(hi, one).like(lo)?;
    let clamped = b.onnx().min(&[floored, top]).like(u)?;
    Ok(vec![b.cast(clamped, ctx.result_element(0)?)?])
}
