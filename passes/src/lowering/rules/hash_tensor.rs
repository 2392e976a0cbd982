use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, Value};

/// `torch.hash_tensor(x, dim, keepdim, mode=0)` (torch 2.13): the XOR of the
/// 64-bit patterns of the elements over `dim` (all dims when empty), as
/// uint64: floating values cast to float64 first, integers and bools
/// sign-extended to int64. ONNX has no XOR reduction, but the XOR of N words
/// is, bit by bit, the parity of how many words have that bit set: each word
/// is split into its 64 bits (`BitShift` right by 0..63, `BitwiseAnd` 1), the
/// bits are summed over `dim` (int64 sums, exact), reduced mod 2 and put back
/// together (`BitShift` left, summed per 32-bit half, `BitwiseOr`). Float bit
/// patterns need `BitCast` (opset 26; integer tensors work from opset 18,
/// `BitwiseAnd`). torch refuses empty reductions and
/// other modes; so does the rule.
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
            return Err(format!(
                "hash_tensor of a floating-point tensor needs the float64 bit patterns, i.e. ONNX BitCast (opset 26); \
                 convert with --opset 26 or later (this is opset {})",
                ctx.b.opset
            ));
        }
        let wide = ctx.b.cast(x, f64t)?;
        let to = crate::onnx_ir::data_type_code(i64t).ok_or("int64 code")?;
        ctx.b.op("BitCast", &[wide], &[("to", Attr::Int(to))], ctx.b.unranked(i64t))?
    } else {
        ctx.b.cast(x, i64t)?
    };
    let words = ctx.b.cast(words, u64t)?;
    // [..., 64] bits: (w >> k) & 1.
    let last = rank as i64;
    let expanded = ctx.unsqueeze(words, &[last])?;
    let shifts: Vec<i64> = (0..64).collect();
    let shifts = ctx.b.cast(ctx.b.const_i64s(&shifts)?, u64t)?;
    let shifted = ctx.b.op("BitShift", &[expanded, shifts], &[("direction", Attr::String("RIGHT".into()))], ctx.b.unranked(u64t))?;
    let one = ctx.b.cast(ctx.b.const_i64s(&[1])?, u64t)?;
    let bits = ctx.b.op("BitwiseAnd", &[shifted, one], &[], ctx.b.unranked(u64t))?;
    let bits = ctx.b.cast(bits, i64t)?;
    // Parity of each bit over the reduced dims.
    let counts = if axes.is_empty() { bits } else { ctx.reduce("ReduceSum", bits, Some(&axes), keepdim, ctx.b.unranked(i64t))? };
    let two = ctx.b.const_i64s(&[2])?;
    let parity = ctx.b.op("Mod", &[counts, two], &[], ctx.b.unranked(i64t))?;
    let parity = ctx.b.cast(parity, u64t)?;
    // Put the bits back in two 32-bit halves: onnxruntime's int64 ReduceSum
    // is not exact near 2^63 (it returned 0 for a word with bit 63 set), sums
    // below 2^32 are.
    let halves: Vec<i64> = (0..64).map(|k| k % 32).collect();
    let halves = ctx.b.cast(ctx.b.const_i64s(&halves)?, u64t)?;
    let placed = ctx.b.op("BitShift", &[parity, halves], &[("direction", Attr::String("LEFT".into()))], ctx.b.unranked(u64t))?;
    let placed = ctx.b.cast(placed, i64t)?;
    let out_rank = if keepdim || rank == 0 { rank as i64 } else { rank as i64 - axes.len() as i64 };
    let axis = ctx.b.const_i64s(&[out_rank])?;
    let half = |from: i64| -> Result<Value<'c, 'a>, String> {
        let (s, e) = (ctx.b.const_i64s(&[from])?, ctx.b.const_i64s(&[from + 32])?);
        let bits = ctx.b.op("Slice", &[placed, s, e, axis], &[], ctx.b.unranked(i64t))?;
        let sum = ctx.reduce("ReduceSum", bits, Some(&[out_rank]), false, ctx.b.unranked(i64t))?;
        ctx.b.cast(sum, u64t)
    };
    let (low, high) = (half(0)?, half(32)?);
    let thirty_two = ctx.b.cast(ctx.b.const_i64_scalar(32)?, u64t)?;
    let high = ctx.b.op("BitShift", &[high, thirty_two], &[("direction", Attr::String("LEFT".into()))], ctx.b.unranked(u64t))?;
    Ok(vec![ctx.op("BitwiseOr", &[high, low], &[])?])
}
