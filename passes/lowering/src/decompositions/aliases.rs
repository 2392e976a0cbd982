//! Aliases and view copies: the op becomes the one it names, arguments
//! passed on unchanged (renamed where the schemas differ). torch.export
//! resolves most aliases while tracing; they still appear in hand-written
//! `.mlir` and in graphs captured by other tools.

use super::{Arg, Decomposition as D, Dx};
use melior::ir::Value;

/// `to(args of the op, renamed by `renames` (from, to))`, typed like the op's results.
fn alias<'c, 'a>(d: &Dx<'c, 'a>, to: &str, renames: &[(&str, &str)]) -> Result<Vec<Value<'c, 'a>>, String> {
    let mut args: Vec<(&str, Arg<'c, 'a>)> = Vec::new();
    for a in d.schema.arguments {
        let name = renames.iter().find(|(from, _)| *from == a.name).map_or(a.name, |(_, to)| *to);
        args.push((name, d.same(a.name)?));
    }
    let results: Vec<_> = (0..d.op_results()).map(|i| d.result_type(i)).collect::<Result<_, _>>()?;
    d.call_n(to, &args, &results)
}

/// Ops that are the same value as their input (`lift_fresh`, `detach_copy`, ...).
fn identity<'c, 'a>(d: &Dx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    Ok(vec![d.args.tensor("self")?])
}

const U: &[&str] = &["self: T[2,3]", "self: T[]"];
const UNIT: &[&str] = &["self: T[2,3]{unit}", "self: T[]{unit}"];
const POS: &[&str] = &["self: T[2,3]{pos}"];
const CMP: &[&str] = &["self: T[2,3]; other: T[3]", "self: T[2,3]; other: T[]"];
const CMP_S: &[&str] = &["self: T[2,3]; other: 0.5"];

pub const DECOMPOSITIONS: &[D] = &[
    D::new("aten.arccos.default", "acos", |d| alias(d, "aten.acos.default", &[])).samples(UNIT),
    D::new("aten.arccosh.default", "acosh", |d| alias(d, "aten.acosh.default", &[]))
        .samples(&["self: T[2,3]{pos}"]),
    D::new("aten.arcsin.default", "asin", |d| alias(d, "aten.asin.default", &[])).samples(UNIT),
    D::new("aten.arcsinh.default", "asinh", |d| alias(d, "aten.asinh.default", &[])).samples(U),
    D::new("aten.arctan.default", "atan", |d| alias(d, "aten.atan.default", &[])).samples(U),
    D::new("aten.arctanh.default", "atanh", |d| alias(d, "aten.atanh.default", &[])).samples(UNIT),
    D::new("aten.arctan2.default", "atan2", |d| alias(d, "aten.atan2.default", &[]))
        .samples(&["self: T[2,3]; other: T[3]"]),
    D::new("aten.special_erf.default", "erf", |d| alias(d, "aten.erf.default", &[])).samples(U),
    D::new("aten.clip.default", "clamp", |d| alias(d, "aten.clamp.default", &[]))
        .samples(&["self: T[2,3]; min: -0.5; max: 0.5", "self: T[4]; min: 0.1"]),
    D::new("aten.clip.Tensor", "clamp.Tensor", |d| alias(d, "aten.clamp.Tensor", &[]))
        .samples(&["self: T[2,3]; min: T[3]; max: T[2,1]"]),
    D::new("aten.concat.default", "cat", |d| alias(d, "aten.cat.default", &[]))
        .samples(&["tensors: (T[2,3], T[1,3]); dim: 0"]),
    D::new("aten.concatenate.default", "cat", |d| alias(d, "aten.cat.default", &[]))
        .samples(&["tensors: (T[2,3], T[2,1]); dim: -1"]),
    D::new("aten.row_stack.default", "vstack", |d| alias(d, "aten.vstack.default", &[]))
        .samples(&["tensors: (T[3], T[2,3])"]),
    D::new("aten.greater.Tensor", "gt", |d| alias(d, "aten.gt.Tensor", &[])).samples(CMP),
    D::new("aten.greater.Scalar", "gt", |d| alias(d, "aten.gt.Scalar", &[])).samples(CMP_S),
    D::new("aten.greater_equal.Tensor", "ge", |d| alias(d, "aten.ge.Tensor", &[])).samples(CMP),
    D::new("aten.greater_equal.Scalar", "ge", |d| alias(d, "aten.ge.Scalar", &[])).samples(CMP_S),
    D::new("aten.less.Tensor", "lt", |d| alias(d, "aten.lt.Tensor", &[])).samples(CMP),
    D::new("aten.less.Scalar", "lt", |d| alias(d, "aten.lt.Scalar", &[])).samples(CMP_S),
    D::new("aten.less_equal.Tensor", "le", |d| alias(d, "aten.le.Tensor", &[])).samples(CMP),
    D::new("aten.less_equal.Scalar", "le", |d| alias(d, "aten.le.Scalar", &[])).samples(CMP_S),
    D::new("aten.not_equal.Tensor", "ne", |d| alias(d, "aten.ne.Tensor", &[])).samples(CMP),
    D::new("aten.not_equal.Scalar", "ne", |d| alias(d, "aten.ne.Scalar", &[])).samples(CMP_S),
    D::new("aten.ger.default", "outer", |d| alias(d, "aten.outer.default", &[]))
        .samples(&["self: T[3]; vec2: T[4]"]),
    D::new("aten.swapdims.default", "transpose", |d| alias(d, "aten.transpose.int", &[]))
        .samples(&["self: T[2,3,4]; dim0: 0; dim1: -1"]),
    D::new("aten.linalg_matmul.default", "matmul", |d| alias(d, "aten.matmul.default", &[]))
        .samples(&["self: T[2,3,4]; other: T[4,5]"]),
    D::new("aten.det.default", "linalg_det", |d| alias(d, "aten.linalg_det.default", &[("self", "A")]))
        .samples(&["self: T[2,3,3]{dd}"]),
    D::new("aten.slogdet.default", "linalg_slogdet", |d| alias(d, "aten.linalg_slogdet.default", &[("self", "A")]))
        .samples(&["self: T[3,3]{dd}"]),
    D::new("aten.chain_matmul.default", "linalg_multi_dot", |d| {
        alias(d, "aten.linalg_multi_dot.default", &[("matrices", "tensors")])
    })
    .samples(&["matrices: (T[2,3], T[3,4], T[4,2])"]),
    D::new("aten.matrix_power.default", "linalg_matrix_power", |d| alias(d, "aten.linalg_matrix_power.default", &[]))
        .samples(&["self: T[3,3]; n: 3", "self: T[2,2,2]; n: 0"]),
    D::new("aten.select_copy.int", "select", |d| alias(d, "aten.select.int", &[]))
        .samples(&["self: T[3,4]; dim: 1; index: -1"]),
    D::new("aten.slice_copy.Tensor", "slice", |d| alias(d, "aten.slice.Tensor", &[]))
        .samples(&["self: T[5,4]; dim: 0; start: 1; end: 4; step: 2"]),
    D::new("aten.split_copy.Tensor", "split", |d| alias(d, "aten.split.Tensor", &[]))
        .samples(&["self: T[5,4]; split_size: 2; dim: 0"]),
    D::new("aten.unsafe_split_with_sizes.default", "split_with_sizes", |d| {
        alias(d, "aten.split_with_sizes.default", &[])
    })
    .samples(&["self: T[5,4]; split_sizes: [1, 3]; dim: 1"]),
    D::new("aten.lift.default", "the input", identity).samples(POS),
    D::new("aten.lift_fresh.default", "the input", identity).samples(POS),
    D::new("aten.detach_copy.default", "the input", identity).samples(U),
];
