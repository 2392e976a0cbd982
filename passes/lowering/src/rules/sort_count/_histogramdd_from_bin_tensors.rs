use super::histogramdd_common::{histogram_of, points, tensor_edges};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// The histogram of torch.histogramdd over given bin edges (what core ATen
/// makes of `histogramdd.TensorList_bins`; the edges are the inputs): see
/// `histogramdd::histogram_of`.
pub const RULES: &[Rule] = &[Rule::custom("aten._histogramdd_from_bin_tensors.default", from_bin_tensors)
    .samples(&[
        "self: T[20,2]; bins: (T[4]{sorted}, T[3]{sorted})",
        "self: T[4,5,2]; bins: (T[5]{sorted}, T[2]{sorted}); weight: T[4,5]{pos}",
        "self: T[15,3]; bins: (T[3]{sorted}, T[4]{sorted}, T[3]{sorted}); density: true",
        "self: T[15,2]; bins: (T[6]{sorted}, T[3]{sorted}); weight: T[15]{pos}; density: true",
        "self: T[0,2]; bins: (T[3]{sorted}, T[3]{sorted})",
        "self: T[8,1]; bins: (T[2]{sorted},)",
    ])
    .dtypes(&["f32", "f64"])];

fn from_bin_tensors<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = points(ctx)?;
    let edges = tensor_edges(ctx, &p)?;
    let hist = histogram_of(ctx, &p, &edges)?;
    Ok(vec![ctx.b.onnx().identity(hist).typed(ctx.result_type(0)?)?])
}
