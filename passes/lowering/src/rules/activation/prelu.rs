use super::act_common::leaky;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.prelu.default", prelu)
    .samples(&[
        "self: T[2,3,4]; weight: T[3]",
        "self: T[2,3,4,5]; weight: T[1]",
        "self: T[2,3]; weight: T[3]",
        "self: T[5]; weight: T[1]",
        "self: T[5]; weight: T[]",
        "self: T[]; weight: T[1]",
        "self: T[]; weight: T[]",
        "self: T[0,3]; weight: T[3]",
    ])
    .dtypes(&["f32", "f64", "f16", "bf16"])];

/// `x > 0 ? x : w * x` with the weight broadcast over the channel dim (dim 1,
/// or a single weight for every element), as torch reshapes it.
fn prelu<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let w = c.b.cast_like(c.args.tensor("weight")?, x)?;
    let rank = c.rank(c.args.tensor("self")?)?;
    let wdims = builder::dims(c.args.tensor("weight")?.r#type()).ok_or("prelu: weight of unknown rank")?;
    if wdims.len() > 1 {
        return Err("prelu: weight must be 0-d or 1-d".into());
    }
    let numel = if wdims.is_empty() { Some(1) } else { wdims[0] };
    let shape: Vec<i64> = match numel {
        Some(1) => vec![],
        _ if rank >= 2 => {
            let mut s = vec![-1];
            s.extend(std::iter::repeat(1).take(rank - 2));
            s
        }
        Some(n) => return Err(format!("prelu: {n} weights for a rank-{rank} input (expected 1)")),
        None => return Err("prelu: weight of dynamic size on an input without channels".into()),
    };
    let w = c.b.onnx().reshape(w, c.b.const_i64s(&shape)?, None).like(x)?;
    Ok(vec![leaky(c, x, w)?])
}
