//! Pieces shared by several rule files.

use crate::{builder, Ctx, IntArg, Number};
use melior::ir::{r#type::TypeLike, Type, Value, ValueLike};

/// `v * name` for the `Scalar` argument `name`, in `element`: nothing for a
/// static 1, a constant for another number, the argument's own value when
/// it arrives as a tensor (`t.item()`, a symbolic number), cast.
pub fn scaled_by_argument<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    v: Value<'c, 'a>,
    name: &str,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    if !ctx.args.is_dynamic(name)? && ctx.args.number(name)?.as_f64() == 1.0 {
        return Ok(v);
    }
    let k = ctx.tensor_as(name, element)?;
    ctx.b.onnx().mul(v, k).like(v)
}

/// `self <op> alpha * other` with both sides cast to the result type.
pub fn binary_alpha<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let result = ctx.result_element(0)?;
    // ONNX Add/Sub take no bools; torch's bool `a + alpha * b` is
    // `a or (alpha and b)`: the int64 sum cast back to bool (nonzero -> true).
    let element = if builder::is_bool(result) { ctx.b.i64_type() } else { result };
    let lhs = ctx.tensor_as("self", element)?;
    let rhs = scaled_by_argument(ctx, ctx.tensor_as("other", element)?, "alpha", element)?;
    if element != result {
        let wide = ctx.b.op_like(op, &[lhs, rhs], &[], lhs)?;
        let to = crate::onnx_ir::data_type_code(result).ok_or("no ONNX data type for the result")?;
        return Ok(vec![ctx.b.onnx().cast(wide, None, None, to).typed(ctx.result_type(0)?)?]);
    }
    Ok(vec![ctx.op(op, &[lhs, rhs], &[])?])
}

/// `other - alpha * self`.
pub fn rsub<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let lhs = scaled_by_argument(ctx, ctx.tensor_as("self", element)?, "alpha", element)?;
    let rhs = ctx.tensor_as("other", element)?;
    Ok(vec![ctx.b.onnx().sub(rhs, lhs).typed(ctx.result_type(0)?)?])
}

/// The element type both sides of a comparison are cast to, following
/// torch's promotion (`result_type`, [`builder::result_type`]): an int8
/// tensor against int64 values is compared in int64, uint8 against int8 in
/// int16; a 0-d tensor counts only when its category is higher; a float
/// Python number promotes an int tensor to the default float type.
pub fn comparison_type<'c>(ctx: &Ctx<'c, '_>) -> Result<Type<'c>, String> {
    let lhs = ctx.args.tensor("self")?;
    let lhs_type = builder::element_type(lhs.r#type()).ok_or("self is not a tensor")?;
    Ok(match ctx.args.tensor_or_number("other")? {
        Ok(rhs) => {
            let rhs_type = builder::element_type(rhs.r#type()).ok_or("other is not a tensor")?;
            let zero_dim = |v: Value<'_, '_>| builder::rank(v.r#type()) == Some(0);
            builder::result_type(ctx.b.context, &[(lhs_type, zero_dim(lhs)), (rhs_type, zero_dim(rhs))])
                .unwrap_or(lhs_type)
        }
        Err(Number::Float(_)) if !builder::is_float(lhs_type) => ctx.b.f32_type(),
        Err(_) => lhs_type,
    })
}

/// An elementwise comparison producing bool.
pub fn compare<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str, negate: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = comparison_type(ctx)?;
    // ONNX orders no bools (Less, Greater, ...): compare them as 0 / 1 ints.
    let element = if builder::is_bool(element) { ctx.b.i64_type() } else { element };
    let lhs = ctx.tensor_as("self", element)?;
    let rhs = ctx.tensor_as("other", element)?;
    if negate {
        let eq = ctx.b.onnx().equal(lhs, rhs).like(crate::ir::result_at(ctx.args.op, 0).ok_or("the op has no result")?)?;
        Ok(vec![ctx.b.onnx().not(eq).typed(ctx.result_type(0)?)?])
    } else {
        Ok(vec![ctx.op(op, &[lhs, rhs], &[])?])
    }
}

/// `x` unchanged: ops that only matter for memory layout or autograd.
pub fn identity<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    Ok(vec![ctx.args.tensor("self")?])
}

/// The shape of `x` with dims `from..to` (Python slice semantics on dims).
pub fn shape_slice<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, '_>,
    from: i64,
    to: Option<i64>,
) -> Result<Value<'c, 'a>, String> {
    let i64_type = ctx.b.i64_type();
    ctx.b.onnx().shape(x, to, Some(from)).typed(ctx.b.unranked(i64_type))
}

/// A broadcastable tensor filled with `value` and shaped by `shape`.
/// `shape` filled with the `Scalar` argument `name`: a constant when the
/// capture recorded a number, else its graph value (`t.item()`, a symbolic
/// number) cast to the result type.
pub fn filled_with<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, name: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let scalar = ctx.tensor_as(name, ctx.result_element(0)?)?;
    Ok(vec![ctx.b.onnx().expand(scalar, shape).typed(ctx.result_type(0)?)?])
}

pub fn filled<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: Value<'c, 'a>, value: f64) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let scalar = ctx.b.const_scalar(element, value)?;
    Ok(vec![ctx.b.onnx().expand(scalar, shape).typed(ctx.result_type(0)?)?])
}

/// `-1` entries of an expand size keep the input dim: ONNX Expand
/// broadcasts, so they become 1.
pub fn expand_size<'c, 'a>(ctx: &Ctx<'c, 'a>, size: Vec<IntArg<'c, 'a>>) -> Result<Value<'c, 'a>, String> {
    let size: Vec<IntArg> = size
        .into_iter()
        .map(|s| match s {
            IntArg::Static(-1) => IntArg::Static(1),
            other => other,
        })
        .collect();
    ctx.int_list_tensor(&size)
}

/// How a split op sizes its pieces: read when a piece's size along the
/// split dim is dynamic (the results' static sizes are used otherwise).
pub enum Pieces<'c, 'a> {
    /// `split_with_sizes`: the sizes themselves (unbacked ones too: MoE
    /// layers split tokens by per-expert counts read with `tolist()`).
    Sizes(Vec<IntArg<'c, 'a>>),
    /// `split(s)`: pieces of `s`, the last one what remains.
    Each(IntArg<'c, 'a>),
    /// `chunk(n)`: pieces of `ceil(size / n)`, the last one what remains.
    Chunks(i64),
}

/// Splits `x` along `dim` into pieces sized like the op's results; where a
/// result's size along `dim` is dynamic, the sizes are computed from
/// `pieces` and the dim's run-time size.
pub fn split_like_results<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: i64,
    pieces: Pieces<'c, 'a>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let rank = ctx.rank(x)?;
    let dim = ctx.norm_dim(dim, rank);
    let mut sizes = Vec::new();
    let mut types = Vec::new();
    for result in melior::ir::operation::OperationLike::results(&ctx.args.op) {
        let ty = result.r#type();
        let d = builder::dims(ty).ok_or("result has an unknown rank")?;
        sizes.push(d.get(dim as usize).copied().ok_or("result rank differs from the input's")?);
        types.push(ty);
    }
    let split = match sizes.iter().copied().collect::<Option<Vec<i64>>>() {
        Some(sizes) => ctx.b.const_i64s(&sizes)?,
        None => dynamic_split_sizes(ctx, x, dim, types.len(), pieces)?,
    };
    ctx.b.onnx().split(x, Some(split), Some(dim), None).results(&types)
}

/// `[size of x along d]`, int64 `[1]`, read at run time.
pub fn dim_size<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, d: i64) -> Result<Value<'c, 'a>, String> {
    let ty = melior::ir::r#type::RankedTensorType::new(&[1], ctx.b.i64_type(), None).into();
    ctx.b.onnx().shape(x, Some(d + 1), Some(d)).typed(ty)
}

/// The number of elements of `x` over `dims` (the product of their sizes),
/// read at run time, as a float64 scalar (exact below 2^53).
pub fn element_count_f64<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, dims: &[i64]) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let tensor = |dims: &[u64], t| melior::ir::r#type::RankedTensorType::new(dims, t, None).into();
    let sizes = b.onnx().gather(b.shape(x)?, b.const_i64s(dims)?, Some(0)).typed(tensor(&[dims.len() as u64], b.i64_type()))?;
    let n = b.onnx().reduce_prod(sizes, None, None, Some(0), None).typed(tensor(&[], b.i64_type()))?;
    b.cast(n, melior::ir::Type::float64(b.context))
}

/// The 1-D sizes of `count` pieces of `x` along `dim` (a dynamic dim).
fn dynamic_split_sizes<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: i64,
    count: usize,
    pieces: Pieces<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64_1 = melior::ir::r#type::RankedTensorType::new(&[1], b.i64_type(), None).into();
    // `count - 1` pieces of `each`, then the remainder `total - each * (count - 1)`.
    let even = |each: Value<'c, 'a>, total: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        if count == 1 {
            return Ok(total);
        }
        let ty = melior::ir::r#type::RankedTensorType::new(&[count as u64], b.i64_type(), None).into();
        let used = b.onnx().mul(each, b.const_i64s(&[count as i64 - 1])?).typed(i64_1)?;
        let last = b.onnx().sub(total, used).typed(i64_1)?;
        let mut parts = vec![each; count - 1];
        parts.push(last);
        b.onnx().concat(&parts, 0).typed(ty)
    };
    match pieces {
        Pieces::Sizes(sizes) if sizes.len() == count => ctx.int_list_tensor(&sizes),
        Pieces::Sizes(sizes) => Err(format!("{} split sizes for {count} results", sizes.len())),
        Pieces::Each(each) => even(ctx.int_tensor(each)?, dim_size(ctx, x, dim)?),
        Pieces::Chunks(n) if n > 0 => {
            // ceil(total / n) = (total + n - 1) / n on a non-negative size.
            let total = dim_size(ctx, x, dim)?;
            let up = b.onnx().add(total, b.const_i64s(&[n - 1])?).typed(i64_1)?;
            even(b.onnx().div(up, b.const_i64s(&[n])?).typed(i64_1)?, total)
        }
        Pieces::Chunks(n) => Err(format!("chunk expects `chunks` to be greater than 0, got: {n}")),
    }
}

/// `Compress(data, condition)` along `axis` with result type `result`.
/// Compress's types stop at opset 11, before bfloat16: a bfloat16 `data`
/// goes through float32 and back (exact both ways).
pub fn compress<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    data: Value<'c, 'a>,
    condition: Value<'c, 'a>,
    axis: i64,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = builder::element_type(data.r#type()).ok_or("not a tensor")?;
    if !unsafe { mlir_sys::mlirTypeIsABF16(element.to_raw()) } {
        return b.onnx().compress(data, condition, Some(axis)).typed(result);
    }
    let f32_type = b.f32_type();
    let wide = b.cast(data, f32_type)?;
    let wide_result = builder::with_element_type(result, f32_type).ok_or("not a tensor type")?;
    let picked = b.onnx().compress(wide, condition, Some(axis)).typed(wide_result)?;
    let narrow = b.cast(picked, element)?;
    b.onnx().identity(narrow).typed(result)
}

/// Logical op on bools, bitwise op on integers.
pub fn bitwise<'c, 'a>(ctx: &Ctx<'c, 'a>, logical: &str, bitwise: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let (a, b) = (ctx.tensor_as("self", element)?, ctx.tensor_as("other", element)?);
    Ok(vec![ctx.op(if builder::is_bool(element) { logical } else { bitwise }, &[a, b], &[])?])
}

/// Rounding ops (floor, ceil, round, trunc): identity on integers (torch
/// returns them unchanged; ONNX's ops are float-only), else `op`.
pub fn rounding<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    if !builder::is_float(ctx.result_element(0)?) {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.op(op, &[x], &[])?])
}

/// torch's CPU `mul` / true `div` of a float16 or bfloat16 tensor by a
/// Python number or a 0-d tensor in `other` keep that number in float32
/// ("opmath": `original_scalar_value<float>`), where other binary ops
/// (add, sub) round it to the half type first: `x * 0.044715` differs from
/// `x * half(0.044715)` in 1 of 4 float16 elements. Such products are
/// written in float32 explicitly (Cast up, the op on a float32 constant,
/// Cast down), which every runtime computes the same way; `None` when the
/// case does not apply (not half, or `other` a tensor of the half type or
/// of rank > 0).
pub fn half_opmath_scalar<'c, 'a>(ctx: &Ctx<'c, 'a>, onnx_op: &str) -> Result<Option<Vec<Value<'c, 'a>>>, String> {
    let element = ctx.result_element(0)?;
    if !builder::is_half_float(element) {
        return Ok(None);
    }
    let f32_t = ctx.b.f32_type();
    let other = match ctx.args.tensor_or_number("other")? {
        Err(number) => ctx.b.const_scalar(f32_t, number.as_f64())?,
        Ok(v) => {
            let ty = v.r#type();
            let one_element_scalar = ctx.args.schema.arguments.iter().any(|a| a.name == "other" && a.ty == "Scalar");
            match (builder::rank(ty), builder::element_type(ty)) {
                (Some(0), Some(t)) if t != element && builder::is_float_or_int(t) => ctx.b.cast(v, f32_t)?,
                // A symbolic number (1-element int64) for a Scalar argument.
                (Some(1), Some(t)) if one_element_scalar && !builder::is_float(t) => {
                    ctx.b.cast(ctx.squeeze(v, &[0])?, f32_t)?
                }
                _ => return Ok(None),
            }
        }
    };
    let x = ctx.tensor_as("self", element)?;
    let xf = ctx.b.cast(x, f32_t)?;
    let ty = builder::with_element_type(ctx.result_type(0)?, f32_t).unwrap_or_else(|| ctx.b.unranked(f32_t));
    let r = ctx.b.op(onnx_op, &[xf, other], &[], ty)?;
    Ok(Some(vec![ctx.b.cast(r, element)?]))
}
