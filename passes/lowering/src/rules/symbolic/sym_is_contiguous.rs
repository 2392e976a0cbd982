use super::layout_meta::{and, bool_value, eq, or, select, size, strides, value, Bv, Iv};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `x.is_contiguous(memory_format)` from the recorded strides of `self`
/// (importer attribute `aten.self_strides`, see layout_meta.rs) and its
/// sizes, as c10 computes it (`compute_contiguous`,
/// `compute_channels_last_contiguous_2d/3d`): walking the dims in the
/// format's order from the innermost, every dim of size != 1 must have the
/// stride equal to the product of the sizes inside it; an empty tensor is
/// contiguous (contiguous_format only). Static sizes and strides give a
/// constant; symbolic ones are compared at run time (a stride recorded as a
/// product of sizes of `self`; other expressions are refused).
pub const RULES: &[Rule] = &[Rule::custom("aten.sym_is_contiguous.default", sym_is_contiguous)];

fn sym_is_contiguous<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let recorded = strides(ctx)?;
    let rank = recorded.len();
    let format = ctx.args.string("memory_format")?;
    // Innermost first.
    let order: Vec<usize> = match format.as_str() {
        "contiguous_format" => (0..rank).rev().collect(),
        // c10 compute_channels_last_contiguous_2d: rank 4 only, else false.
        "channels_last" if rank == 4 => vec![1, 3, 2, 0],
        "channels_last_3d" if rank == 5 => vec![1, 4, 3, 2, 0],
        "channels_last" | "channels_last_3d" => return Ok(vec![bool_value(ctx, Bv::S(false))?]),
        other => return Err(format!("is_contiguous with memory_format={other} (torch refuses it)")),
    };
    let sizes: Vec<Iv> = (0..rank).map(|d| size(ctx, d)).collect::<Result<_, _>>()?;
    let strides: Vec<Iv> = recorded
        .iter()
        .enumerate()
        .map(|(d, s)| value(ctx, s, &format!("stride({d})")))
        .collect::<Result<_, _>>()?;
    let mut ok = Bv::S(true);
    let mut expected = Iv::S(1);
    for d in order {
        let unit = eq(ctx, sizes[d], Iv::S(1))?;
        let matches = eq(ctx, strides[d], expected)?;
        ok = and(ctx, ok, or(ctx, unit, matches)?)?;
        // c10 stops at the first mismatch; the result is false then anyway.
        let grown = super::layout_meta::mul(ctx, expected, sizes[d])?;
        expected = select(ctx, unit, expected, grown)?;
    }
    if format == "contiguous_format" {
        let mut empty = Bv::S(false);
        for &s in &sizes {
            empty = or(ctx, empty, eq(ctx, s, Iv::S(0))?)?;
        }
        ok = or(ctx, ok, empty)?;
    }
    Ok(vec![bool_value(ctx, ok)?])
}
