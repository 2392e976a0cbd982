use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.channel_shuffle.default", channel_shuffle)
    .samples(&["self: T[2,6,3,3]; groups: 3", "self: T[1,4,5]; groups: 2"])
    .dtypes(&["f32", "i64"])];

/// `[N, C, *] -> [N, g, C/g, *] -> swap -> [N, C, *]`.
pub(super) fn channel_shuffle<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let g = c.args.int("groups")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    if dims.len() < 3 {
        return Err("channel_shuffle needs more than 2 dims, like torch".into());
    }
    let ch = dims[1].ok_or("channel_shuffle needs a static channel count")?;
    if g <= 0 || ch % g != 0 {
        return Err(format!("channel_shuffle of {ch} channels into {g} groups"));
    }
    let s = c.b.const_i64s(&[0, g, ch / g, -1])?;
    let y = c.b.op_like("Reshape", &[x, s], &[], x)?;
    let y = c.b.op_like("Transpose", &[y], &[("perm", Attr::Ints(vec![0, 2, 1, 3]))], x)?;
    Ok(vec![c.op("Reshape", &[y, c.b.shape(x)?], &[])?])
}
