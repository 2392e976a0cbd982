use crate::{Attr, Ctx, Rule};
use melior::ir::{r#type::RankedTensorType, Value};

pub const RULES: &[Rule] = &[Rule::custom("aten.sym_size.int", sym_size)];

/// A symbolic size is a 1-element int64 tensor: `Shape(x, start=d, end=d+1)`.
fn sym_size<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let dim = ctx.args.int("dim")?;
    let ty = RankedTensorType::new(&[1], ctx.b.i64_type(), None).into();
    let mut attrs = vec![("start", Attr::Int(dim))];
    if dim != -1 {
        attrs.push(("end", Attr::Int(dim + 1)));
    }
    Ok(vec![ctx.b.op("Shape", &[x], &attrs, ty)?])
}
