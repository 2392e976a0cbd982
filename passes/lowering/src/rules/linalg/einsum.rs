//! `torch.einsum` -> ONNX `Einsum`, with the two places where torch's
//! ellipsis is more general than ONNX's:
//! - inputs whose `...` covers fewer dims than another's (`...ik,...j`):
//!   torch broadcasts them; ONNX requires every ellipsis to have the same
//!   rank (onnx.checker rejects the model), so the shorter ones get size-1
//!   dims in front of their ellipsis;
//! - an explicit output without `...` although the ellipsis covers dims:
//!   torch sums over them (numpy and ONNX's reference raise), so the output
//!   keeps them in front (`->...ij`) and a ReduceSum removes them.
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.einsum.default", einsum)
    .samples(&[
        "equation: \"bij,bjk->bik\"; tensors: (T[2,3,4], T[2,4,5])",
        "equation: \"ij->ji\"; tensors: (T[3,4])",
        "equation: \"...ik,...j->ij\"; tensors: (T[1,2,3], T[3])",
        "equation: \"...ij,...jk->...ik\"; tensors: (T[2,3,4,5], T[5,6])",
        "equation: \"...ij,...jk\"; tensors: (T[2,3,4], T[4,2])",
        "equation: \"b...i->b\"; tensors: (T[2,3,4,5])",
        "equation: \"i,i\"; tensors: (T[4], T[4])",
    ])];

fn einsum<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let equation: String = c.args.string("equation")?.chars().filter(|ch| !ch.is_whitespace()).collect();
    let element = c.result_element(0)?;
    let tensors = c.args.tensors("tensors")?;
    let (lhs, rhs) = match equation.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (equation.clone(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != tensors.len() {
        return Err(format!("einsum equation '{equation}' has {} operands, {} tensors given", terms.len(), tensors.len()));
    }
    // Ellipsis rank of each operand (None: no `...`).
    let mut ellipsis = Vec::new();
    for (term, t) in terms.iter().zip(&tensors) {
        let rank = c.rank(*t)?;
        let letters = term.chars().filter(|ch| ch.is_ascii_alphabetic()).count();
        ellipsis.push(if term.contains("...") {
            Some(rank.checked_sub(letters).ok_or_else(|| {
                format!("einsum operand '{term}' names {letters} dims of a rank-{rank} tensor")
            })?)
        } else {
            None
        });
    }
    let widest = ellipsis.iter().flatten().copied().max().unwrap_or(0);
    let mut inputs = Vec::new();
    for ((term, t), e) in terms.iter().zip(&tensors).zip(&ellipsis) {
        let mut t = c.b.cast_like_type(*t, element)?;
        if let Some(e) = *e {
            if e < widest {
                // Size-1 dims in front of the ellipsis: it starts after the
                // letters written before `...`.
                let start = term.split("...").next().unwrap_or("").chars().filter(|ch| ch.is_ascii_alphabetic()).count();
                let axes: Vec<i64> = (start..start + widest - e).map(|a| a as i64).collect();
                t = c.unsqueeze(t, &axes)?;
            }
        }
        inputs.push(t);
    }
    let summed = match &rhs {
        Some(r) if !r.contains("...") && widest > 0 => Some(format!("{lhs}->...{r}")),
        _ => None,
    };
    let Some(eq) = summed else {
        return Ok(vec![c.b.onnx().einsum(&inputs, &equation).typed(c.result_type(0)?)?]);
    };
    let kept = c.b.onnx().einsum(&inputs, &eq).typed(c.b.unranked(element))?;
    let axes: Vec<i64> = (0..widest as i64).collect();
    Ok(vec![c.reduce(crate::Reduction::Sum, kept, Some(&axes), false, c.result_type(0)?)?])
}
