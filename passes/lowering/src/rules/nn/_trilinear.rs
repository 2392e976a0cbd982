use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten._trilinear.default", trilinear)
    .samples(&[
        // F.bilinear's core form: x1 [N, in1], W [out, in1, in2], x2 [N, in2].
        "i1: T[3,4]; i2: T[5,4,2]; i3: T[3,2]; expand1: [1, 3]; expand2: [0]; expand3: [1, 2]; sumdim: [2, 3]; unroll_dim: 1",
        "i1: T[2,3]; i2: T[1,3,4]; i3: T[2,4]; expand1: [1, 3]; expand2: [0]; expand3: [1, 2]; sumdim: [2, 3]; unroll_dim: 0",
        // No summed dim: a broadcast product.
        "i1: T[2,3]; i2: T[3]; i3: T[2,3]; expand1: []; expand2: [0]; expand3: []; sumdim: []",
        // Summing one dim only.
        "i1: T[2,3]; i2: T[2,3]; i3: T[3]; expand1: []; expand2: []; expand3: [0]; sumdim: [1]",
    ])
    .dtypes(&["f32", "f64"])];

/// `_trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim)` (F.bilinear in
/// core ATen): each input gets size-1 dims inserted at its `expand` positions
/// (positions of the `total_dim`-D common shape, inserted in increasing
/// order), the three are multiplied with broadcasting and summed over `sumdim`,
/// whose dims are removed. `unroll_dim` only chooses torch's loop order.
fn trilinear<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let out_rank = builder::rank(c.result_type(0)?).ok_or("_trilinear: the result has an unknown rank")?;
    let mut sumdim = c.args.ints("sumdim")?;
    let total = out_rank + sumdim.len();
    let norm = |d: i64| -> Result<i64, String> {
        let t = total as i64;
        if d < -t || d >= t {
            return Err(format!("_trilinear: dim {d} out of range for {total} dims"));
        }
        Ok(if d < 0 { d + t } else { d })
    };
    sumdim = sumdim.into_iter().map(norm).collect::<Result<_, _>>()?;
    sumdim.sort_unstable();
    sumdim.dedup();
    if sumdim.len() + out_rank != total {
        return Err("_trilinear: sumdim lists a dim twice".into());
    }
    let element = c.result_element(0)?;
    // torch requires equal sizes wherever inputs are not expanded (no
    // broadcasting of size-1 dims); checked here where the sizes are static.
    let mut sizes: Vec<Option<i64>> = vec![None; total];
    let out_dims = builder::dims(c.result_type(0)?).unwrap_or_default();
    let mut out_i = 0;
    for (d, size) in sizes.iter_mut().enumerate() {
        if !sumdim.contains(&(d as i64)) {
            *size = out_dims.get(out_i).copied().flatten();
            out_i += 1;
        }
    }
    let mut product: Option<Value<'c, 'a>> = None;
    for (input, expand) in [("i1", "expand1"), ("i2", "expand2"), ("i3", "expand3")] {
        let mut axes = c.args.ints(expand)?.into_iter().map(norm).collect::<Result<Vec<_>, _>>()?;
        axes.sort_unstable();
        axes.dedup();
        let x = c.tensor_as(input, element)?;
        if let Some(rank) = builder::rank(x.r#type()) {
            if rank + axes.len() != total {
                return Err(format!(
                    "_trilinear: {input} has {rank} dims and {expand} {} for {total} dims",
                    axes.len()
                ));
            }
        }
        if let Some(dims) = builder::dims(x.r#type()) {
            let kept = (0..total as i64).filter(|d| !axes.contains(d));
            for (d, size) in kept.zip(dims) {
                let d = d as usize;
                match (size, sizes[d]) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(format!("_trilinear: {input} has size {a} at dim {d} where another input has {b}"))
                    }
                    (Some(a), None) => sizes[d] = Some(a),
                    _ => {}
                }
            }
        }
        let x = if axes.is_empty() { x } else { c.unsqueeze(x, &axes)? };
        product = Some(match product {
            None => x,
            Some(p) => c.b.onnx().mul(p, x).typed(c.b.unranked(element))?,
        });
    }
    let product = product.ok_or("_trilinear: no inputs")?;
    if sumdim.is_empty() {
        // Broadcast to the result type (the product already has its shape).
        return Ok(vec![c.b.onnx().identity(product).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.reduce(crate::Reduction::Sum, product, Some(&sumdim), false, c.result_type(0)?)?])
}
