//! Ops that are another op under a second name (`divide` is `div`,
//! `mT` is `transpose(-2, -1)`, ...): their rules run the rule of the op
//! they alias, whose arguments have the same schema names.

use crate::Ctx;
use melior::ir::Value;

/// Lowers the op with the rule of `target`.
pub fn same_as<'c, 'a>(ctx: &Ctx<'c, 'a>, target: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let rule = crate::rule(target).ok_or_else(|| format!("no rule for {target}, which this op aliases"))?;
    rule.apply(ctx)
}
