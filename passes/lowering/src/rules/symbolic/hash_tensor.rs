use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, Value};

/// `torch.hash_tensor(x, dim, keepdim, mode=0)` (torch 2.13): the XOR of the
/// 64-bit patterns of the elements over `dim` (all dims when empty), as
/// uint64: floating values cast to float64 first, integers and bools
/// sign-extended to int64. ONNX has no XOR reduction, but the XOR of N words
/// is, bit by bit, the parity of how many words have that bit set: each word
/// is split into its 64 bits (`BitShift` right by 0..63, `BitwiseAnd` 1), the
/// bits are summed over `dim` (int64 sums, exact), reduced mod 2 and put back
/// together (`BitShift` left, summed per 32-bit half, `BitwiseOr`). Float bit
/// patterns come from `BitCast` from opset 26; below it (from opset 18,
/// `BitwiseAnd`) they are computed with exact float64 arithmetic
/// ([`float64_words`]), exactly for every value but a NaN's sign and
/// payload, which no ONNX op before `BitCast` can read: every NaN gives the
/// bits of torch's own NaN (`float('nan')`, `0x7FF8000000000000`), while a
/// NaN with its sign bit set (x86's `0 / 0`, `-nan`) or a payload differs
/// from torch (like `signbit`, rules/signbit.rs). torch refuses empty
/// reductions and other modes; so does the rule.
pub const RULES: &[Rule] = &[Rule::custom("aten.hash_tensor.default", hash_tensor)
    .opsets(18, 28)
    .samples(&[
        "self: T[2,3]",
        "self: T[2,3]; dim: [1]",
        "self: T[2,3,4]; dim: [0,2]; keepdim: true",
        "self: T[]",
        "self: T[]; dim: [0]; keepdim: true",
        "self: T[4]; dim: [-1]",
    ])
    .dtypes(&["f32", "f64", "f16", "i64", "i32", "i16", "i8", "u8", "bool"])];

fn hash_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let mode = ctx.args.int("mode")?;
    if mode != 0 {
        return Err(format!("hash_tensor mode {mode} (torch 2.13 knows only mode 0)"));
    }
    let aten_ty = ctx.aten_operand_types.first().copied().ok_or("no 'self' operand")?;
    let dims = builder::dims(aten_ty).ok_or("'self' is not a ranked tensor")?;
    let rank = dims.len();
    let keepdim = ctx.args.bool("keepdim")?;
    let mut axes: Vec<i64> = Vec::new();
    for d in ctx.args.ints("dim")? {
        let d = ctx.dim(d, rank)? as i64;
        if !axes.contains(&d) {
            axes.push(d);
        }
    }
    if rank == 0 {
        // dim 0 / -1 of a 0-d tensor (checked above) reduces nothing.
        axes.clear();
    } else if axes.is_empty() {
        axes = (0..rank as i64).collect();
    }
    // torch refuses an empty reduction.
    let reduced: Vec<Option<i64>> =
        if rank == 0 { vec![] } else { axes.iter().map(|&a| dims[a as usize]).collect() };
    if reduced.contains(&Some(0)) || (ctx.args.ints("dim")?.is_empty() && dims.contains(&Some(0))) {
        return Err("hash_tensor over an empty reduction (torch: expected the reduction dim to have non-zero size)".into());
    }
    if reduced.iter().any(Option::is_none) {
        return Err("hash_tensor over a dynamic dim: torch refuses a size of 0 there, which the graph cannot check".into());
    }
    let x = ctx.args.tensor("self")?;
    let element = builder::element_type(aten_ty).ok_or("'self' is not a tensor")?;
    let i64t = ctx.b.i64_type();
    let u64t: Type = IntegerType::unsigned(ctx.b.context, 64).into();
    let f64t: Type = melior::ir::r#type::Type::float64(ctx.b.context);
    // The 64-bit pattern of every element, as int64.
    let words = if builder::is_float(element) {
        if ctx.b.opset < 26 {
            float64_words(ctx, x)?
        } else {
            let wide = ctx.b.cast(x, f64t)?;
            let to = crate::onnx_ir::data_type_code(i64t).ok_or("int64 code")?;
            ctx.b.onnx().bit_cast(wide, to).typed(ctx.b.unranked(i64t))?
        }
    } else {
        ctx.b.cast(x, i64t)?
    };
    let words = ctx.b.cast(words, u64t)?;
    // [..., 64] bits: (w >> k) & 1.
    let last = rank as i64;
    let expanded = ctx.unsqueeze(words, &[last])?;
    let shifts: Vec<i64> = (0..64).collect();
    let shifts = ctx.b.cast(ctx.b.const_i64s(&shifts)?, u64t)?;
    let shifted = ctx.b.onnx().bit_shift(expanded, shifts, "RIGHT").typed(ctx.b.unranked(u64t))?;
    let one = ctx.b.cast(ctx.b.const_i64s(&[1])?, u64t)?;
    let bits = ctx.b.onnx().bitwise_and(shifted, one).typed(ctx.b.unranked(u64t))?;
    let bits = ctx.b.cast(bits, i64t)?;
    // Parity of each bit over the reduced dims.
    let counts = if axes.is_empty() { bits } else { ctx.reduce(crate::Reduction::Sum, bits, Some(&axes), keepdim, ctx.b.unranked(i64t))? };
    let two = ctx.b.const_i64s(&[2])?;
    let parity = ctx.b.onnx().mod_(counts, two, None).typed(ctx.b.unranked(i64t))?;
    let parity = ctx.b.cast(parity, u64t)?;
    // Put the bits back in two 32-bit halves: onnxruntime's int64 ReduceSum
    // is not exact near 2^63 (it returned 0 for a word with bit 63 set), sums
    // below 2^32 are.
    let halves: Vec<i64> = (0..64).map(|k| k % 32).collect();
    let halves = ctx.b.cast(ctx.b.const_i64s(&halves)?, u64t)?;
    let placed = ctx.b.onnx().bit_shift(parity, halves, "LEFT").typed(ctx.b.unranked(u64t))?;
    let placed = ctx.b.cast(placed, i64t)?;
    let out_rank = if keepdim || rank == 0 { rank as i64 } else { rank as i64 - axes.len() as i64 };
    let axis = ctx.b.const_i64s(&[out_rank])?;
    let half = |from: i64| -> Result<Value<'c, 'a>, String> {
        let (s, e) = (ctx.b.const_i64s(&[from])?, ctx.b.const_i64s(&[from + 32])?);
        let bits = ctx.b.onnx().slice(placed, s, e, Some(axis), None).typed(ctx.b.unranked(i64t))?;
        let sum = ctx.reduce(crate::Reduction::Sum, bits, Some(&[out_rank]), false, ctx.b.unranked(i64t))?;
        ctx.b.cast(sum, u64t)
    };
    let (low, high) = (half(0)?, half(32)?);
    let thirty_two = ctx.b.cast(ctx.b.const_i64_scalar(32)?, u64t)?;
    let high = ctx.b.onnx().bit_shift(high, thirty_two, "LEFT").typed(ctx.b.unranked(u64t))?;
    Ok(vec![ctx.b.onnx().bitwise_or(high, low).typed(ctx.result_type(0)?)?])
}

/// The IEEE 754 bit pattern of `x` cast to float64, as int64, with exact
/// float64 arithmetic (no `BitCast` before opset 26). For `a = |x|`:
/// - sign: `x < 0`, or a zero whose reciprocal is negative (-0.0); a NaN
///   counts as positive;
/// - a normal `a` (`>= 2^-1022`, finite) is scaled into `[1, 2)` by exact
///   powers of two, up by `2^-k` while `a >= 2^k` then down by `2^k` while
///   `a < 2^(1-k)`, for k = 512, 256, ..., 1 (a binary search of the
///   exponent `e`, every product exact); exponent field `e + 1023`, mantissa
///   `(a - 1) * 2^52`, an integer below 2^52;
/// - a subnormal: exponent 0, mantissa `a * 2^1022 * 2^52` (each product
///   exact; `2^1074` itself is not a float64);
/// - zero: 0 and 0; infinity: 2047 and 0; NaN: 2047 and `2^51` (torch's NaN).
///
/// The fields are put together in int64 (`E * 2^52 + M`, below 2^63; the
/// sign adds `i64::MIN`), exact where float64 would round.
fn float64_words<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let f64t: Type = Type::float64(b.context);
    let i64t = b.i64_type();
    let fts = b.unranked(f64t);
    let i64s = b.unranked(i64t);
    let bools = b.unranked(IntegerType::new(b.context, 1).into());
    let c = |v: f64| b.const_scalar(f64t, v);
    let v = b.cast(x, f64t)?;
    let zero = c(0.0)?;
    let a = b.onnx().abs(v).typed(fts)?;
    let below = b.onnx().less(v, zero).typed(bools)?;
    let reciprocal = b.onnx().div(c(1.0)?, v).typed(fts)?;
    let negative_zero = b.onnx().and(b.onnx().equal(v, zero).typed(bools)?, b.onnx().less(reciprocal, zero).typed(bools)?).typed(bools)?;
    let sign = b.onnx().or(below, negative_zero).typed(bools)?;
    let nan = b.onnx().is_na_n(v).typed(bools)?;
    let inf = b.onnx().is_inf(v, None, None).typed(bools)?;
    let smallest_normal = c(f64::MIN_POSITIVE)?;
    let normal = b.onnx().and(b.onnx().greater_or_equal(a, smallest_normal).typed(bools)?, b.onnx().not(inf).typed(bools)?).typed(bools)?;
    let subnormal = b.onnx().and(b.onnx().less(a, smallest_normal).typed(bools)?, b.onnx().greater(a, zero).typed(bools)?).typed(bools)?;
    // Normal values scaled into [1, 2); `e` counts the exponent (exact small
    // integers in float64).
    let mut m = b.onnx().where_(normal, a, c(1.0)?).typed(fts)?;
    let mut e = zero;
    let steps = [512i32, 256, 128, 64, 32, 16, 8, 4, 2, 1];
    for k in steps {
        let up = b.onnx().greater_or_equal(m, c(pow2(k))?).typed(bools)?;
        m = b.onnx().where_(up, b.onnx().mul(m, c(pow2(-k))?).typed(fts)?, m).typed(fts)?;
        e = b.onnx().add(e, b.onnx().where_(up, c(k as f64)?, zero).typed(fts)?).typed(fts)?;
    }
    for k in steps {
        let down = b.onnx().less(m, c(pow2(1 - k))?).typed(bools)?;
        m = b.onnx().where_(down, b.onnx().mul(m, c(pow2(k))?).typed(fts)?, m).typed(fts)?;
        e = b.onnx().sub(e, b.onnx().where_(down, c(k as f64)?, zero).typed(fts)?).typed(fts)?;
    }
    let mantissa = b.onnx().mul(b.onnx().sub(m, c(1.0)?).typed(fts)?, c(pow2(52))?).typed(fts)?;
    let scaled = b.onnx().mul(a, c(pow2(1022))?).typed(fts)?;
    let sub_mantissa = b.onnx().mul(scaled, c(pow2(52))?).typed(fts)?;
    let special = b.onnx().or(nan, inf).typed(bools)?;
    let exponent = b.onnx().where_(normal, b.onnx().add(e, c(1023.0)?).typed(fts)?, b.onnx().where_(special, c(2047.0)?, zero).typed(fts)?).typed(fts)?;
    let nan_mantissa = b.onnx().where_(nan, c(pow2(51))?, zero).typed(fts)?;
    let mantissa = b.onnx().where_(normal, mantissa, b.onnx().where_(subnormal, sub_mantissa, nan_mantissa).typed(fts)?).typed(fts)?;
    let exponent = b.cast(exponent, i64t)?;
    let mantissa = b.cast(mantissa, i64t)?;
    let field = b.onnx().mul(exponent, b.const_i64_scalar(1 << 52)?).typed(i64s)?;
    let low = b.onnx().add(field, mantissa).typed(i64s)?;
    let signed = b.onnx().add(low, b.const_i64_scalar(i64::MIN)?).typed(i64s)?;
    b.onnx().where_(sign, signed, low).typed(i64s)
}

/// `2^k` for a normal float64 exponent (`-1022 <= k <= 1023`), built from
/// its bits.
fn pow2(k: i32) -> f64 {
    assert!((-1022..=1023).contains(&k), "2^{k} is not a normal float64");
    f64::from_bits(((k + 1023) as u64) << 52)
}
