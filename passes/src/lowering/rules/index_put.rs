use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.index_put.default", index_put).samples(&[
    "self: T[5,3]; indices: (i64[1]{0..5}); values: T[1,3]",
    "self: T[5,3]; indices: (i64[4]{0..5}); values: T[4,3]; accumulate: true",
    "self: T[3,5]; indices: (none, i64[1]{0..5}); values: T[3,1]",
])];

/// `self[..., idx, ...] = values` with one integer index tensor at dim k
/// (only `None`s before it): `ScatterND` along dim 0 of `self` transposed so
/// that k comes first. `accumulate=True` uses reduction "add".
fn index_put<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let indices = ctx.args.opt_tensors("indices")?;
    let given: Vec<(usize, Value)> = indices.iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect();
    let [(k, idx)] = given.as_slice() else {
        return Err(format!("index_put with {} index tensors is not supported (only one)", given.len()));
    };
    let k = *k;
    let element = builder::element_type(idx.r#type()).ok_or("index is not a tensor")?;
    if builder::is_bool(element) {
        return Err("index_put with a boolean mask is not supported".into());
    }
    let rank = ctx.rank(x)?;
    if k > 0 && ctx.rank(*idx)? != 1 {
        return Err("index_put on dim > 0 needs a 1-D index".into());
    }
    let idx = b.cast_like_type(*idx, b.i64_type())?;
    let i64s = b.unranked(b.i64_type());
    // The indexed region's shape: self's shape with dim k replaced by idx's shape.
    let mut parts = Vec::new();
    if k > 0 {
        parts.push(b.op("Shape", &[x], &[("end", Attr::Int(k as i64))], i64s)?);
    }
    parts.push(b.shape(idx)?);
    if k + 1 < rank {
        parts.push(b.op("Shape", &[x], &[("start", Attr::Int(k as i64 + 1))], i64s)?);
    }
    let region = b.op("Concat", &parts, &[("axis", Attr::Int(0))], i64s)?;
    let values = ctx.tensor_as("values", ctx.result_element(0)?)?;
    let values = b.op_like("Expand", &[values, region], &[], values)?;
    let mut attrs = Vec::new();
    if ctx.args.bool("accumulate")? {
        attrs.push(("reduction", Attr::String("add".into())));
    }
    let idx = ctx.unsqueeze(idx, &[-1])?;
    if k == 0 {
        return Ok(vec![ctx.op("ScatterND", &[x, idx, values], &attrs)?]);
    }
    let mut perm: Vec<i64> = vec![k as i64];
    perm.extend((0..rank as i64).filter(|&d| d != k as i64));
    let mut inverse = vec![0i64; rank];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p as usize] = i as i64;
    }
    let xt = b.op_like("Transpose", &[x], &[("perm", Attr::Ints(perm.clone()))], x)?;
    let vt = b.op_like("Transpose", &[values], &[("perm", Attr::Ints(perm))], x)?;
    let scattered = b.op_like("ScatterND", &[xt, idx, vt], &attrs, x)?;
    Ok(vec![ctx.op("Transpose", &[scattered], &[("perm", Attr::Ints(inverse))])?])
}
