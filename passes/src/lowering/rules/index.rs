use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.index.Tensor", index)
    .samples(&[
        "self: T[4,5]; indices: (i64[3]{0..4})",
        "self: T[4,5]; indices: (none, i64[2]{0..5})",
        "self: T[4,5]; indices: (i64[2,1]{0..4}, i64[3]{0..5})",
    ])
    .dtypes(&["f32", "i64"])
    .refuses(&[("self: T[4]; indices: (bool[4])", "boolean-mask")])];

/// Advanced indexing with integer index tensors:
/// - one index tensor after leading `None`s: `Gather(x, idx, axis)`;
/// - index tensors on the leading dims 0..k: broadcast them together, stack
///   on a last axis and `GatherND` (torch's result layout for that case).
/// Boolean masks and other placements are refused.
fn index<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let indices = ctx.args.opt_tensors("indices")?;
    let given: Vec<(usize, Value)> = indices.iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect();
    for (_, idx) in &given {
        let element = builder::element_type(idx.r#type()).ok_or("index is not a tensor")?;
        if builder::is_bool(element) {
            return Err("boolean-mask indexing has a data-dependent shape; not supported".into());
        }
    }
    match given.as_slice() {
        [] => Ok(vec![x]),
        [(axis, idx)] => Ok(vec![ctx.op("Gather", &[x, *idx], &[("axis", Attr::Int(*axis as i64))])?]),
        many if many.iter().enumerate().all(|(i, (d, _))| i == *d) => {
            let i64s = b.unranked(b.i64_type());
            let values: Vec<Value> =
                many.iter().map(|(_, v)| b.cast_like_type(*v, b.i64_type())).collect::<Result<_, _>>()?;
            // Their common broadcast shape: the shape of their sum.
            let mut sum = values[0];
            for v in &values[1..] {
                sum = b.op("Add", &[sum, *v], &[], i64s)?;
            }
            let shape = b.shape(sum)?;
            let mut stacked = Vec::new();
            for v in values {
                let e = b.op("Expand", &[v, shape], &[], i64s)?;
                stacked.push(ctx.unsqueeze(e, &[-1])?);
            }
            let stacked = b.op("Concat", &stacked, &[("axis", Attr::Int(-1))], i64s)?;
            Ok(vec![ctx.op("GatherND", &[x, stacked], &[])?])
        }
        _ => Err("index tensors that are not on the leading dims (or a single one) are not supported".into()),
    }
}
