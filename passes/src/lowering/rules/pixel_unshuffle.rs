use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.pixel_unshuffle.default", pixel_unshuffle)
    .samples(&["self: T[1,2,4,6]; downscale_factor: 2", "self: T[3,6,3]; downscale_factor: 3", "self: T[2,1,2,4,4]; downscale_factor: 2", "self: T[1,1,0,1]; downscale_factor: 1", "self: T[2,0,4,2]; downscale_factor: 2"])
    .dtypes(&["f32", "i64"])];

/// `[*, C, H*r, W*r] -> [*, C*r*r, H, W]`: channel `c*r*r + i*r + j` takes
/// pixel (i, j) of each r x r block (not SpaceToDepth's order).
fn pixel_unshuffle<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let r = c.args.int("downscale_factor")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = dims.len();
    if rank < 3 {
        return Err("pixel_unshuffle needs at least 3 dims".into());
    }
    let chw: Vec<i64> =
        dims[rank - 3..].iter().map(|d| d.ok_or("pixel_unshuffle needs static C, H, W")).collect::<Result<_, _>>()?;
    let (ch, h, w) = (chw[0], chw[1], chw[2]);
    if r <= 0 || h % r != 0 || w % r != 0 {
        return Err(format!("pixel_unshuffle of {h}x{w} by {r}"));
    }
    // An empty input: torch returns it as it is (its shape, not the
    // unshuffled one); the result type says which.
    if dims.contains(&Some(0)) {
        let out = builder::dims(c.result_type(0)?).ok_or("unknown result rank")?;
        if let Some(shape) = out.iter().copied().collect::<Option<Vec<i64>>>() {
            let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
            let zero = c.b.const_scalar(element, 0.0)?;
            return Ok(vec![c.op("Expand", &[zero, c.b.const_i64s(&shape)?], &[])?]);
        }
    }
    let i64t = c.b.unranked(c.b.i64_type());
    let lead = c.b.op("Shape", &[x], &[("end", Attr::Int(rank as i64 - 3))], i64t)?;
    let lead_n = c.reduce("ReduceProd", lead, None, true, i64t)?;
    let lead_n = c.b.op("Reshape", &[lead_n, c.b.const_i64s(&[1])?], &[], i64t)?;
    let s6 = c.b.op("Concat", &[lead_n, c.b.const_i64s(&[ch, h / r, r, w / r, r])?], &[("axis", Attr::Int(0))], i64t)?;
    // allowzero: a 0 in these shapes is a real size 0 (an empty H or W), not
    // "copy the input dim".
    let y = c.b.op_like("Reshape", &[x, s6], &[("allowzero", Attr::Int(1))], x)?;
    let y = c.b.op_like("Transpose", &[y], &[("perm", Attr::Ints(vec![0, 1, 3, 5, 2, 4]))], x)?;
    let out = c.b.op("Concat", &[lead, c.b.const_i64s(&[ch * r * r, h / r, w / r])?], &[("axis", Attr::Int(0))], i64t)?;
    Ok(vec![c.op("Reshape", &[y, out], &[("allowzero", Attr::Int(1))])?])
}
