use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.reshape.default", reshape)];

fn reshape<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let shape = ctx.int_list_tensor(&ctx.args.sym_ints("shape")?)?;
    Ok(vec![ctx.op("Reshape", &[x, shape], &[])?])
}
