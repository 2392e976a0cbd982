//! The cost model extraction minimises: an estimate of run time in
//! "byte-equivalents" per node,
//!
//! ```text
//! cost(node) = NODE_OVERHEAD + bytes moved + FLOPS_WEIGHT * FLOPs
//! ```
//!
//! - `NODE_OVERHEAD` (4096): dispatching a kernel and allocating its output
//!   costs about as much as moving 4 KB; it makes fewer nodes win when the
//!   tensors are small (the tiny models of the corpus) and keeps the count
//!   meaningful on big ones.
//! - bytes moved: every tensor input read plus every output written, from
//!   the static dims and element size; an unknown or symbolic dim counts as
//!   [`SYMBOLIC_DIM`] (a product such as `4*s0` as 4 times that). Ops that
//!   only relabel the shape (Reshape, Squeeze, Unsqueeze, Flatten, Identity,
//!   Shape, Size) move nothing.
//! - FLOPs: `2*M*N*K` (times the batch) for MatMul/Gemm, `2 * output *
//!   kernel * C_in / group` for Conv, about 5 per element for
//!   normalizations, 1 per output element for everything else.
//!   `FLOPS_WEIGHT` is 0.25 (a core does about 4 FLOPs per byte it moves).
//! - Leaves (arguments, initializers, constants), weight transforms (computed
//!   by the writer) and projections cost 1: they exist whichever node is
//!   chosen, or cost nothing at run time.
//!
//! Greedy extraction (`mod.rs`) adds to a node's own cost its operands'
//! costs, each divided by how many e-classes use that operand, and keeps
//! the cheapest node of every e-class.

use super::{
    analysis::{Data, Dim, TyInfo},
    lang::{dtype, ONode},
};

pub const NODE_OVERHEAD: f64 = 4096.0;
pub const SYMBOLIC_DIM: f64 = 64.0;
pub const FLOPS_WEIGHT: f64 = 0.25;

fn elem_bytes(elem: Option<i32>) -> f64 {
    match elem {
        Some(dtype::DOUBLE | dtype::INT64 | dtype::UINT64) => 8.0,
        Some(dtype::FLOAT | dtype::INT32 | dtype::UINT32) => 4.0,
        Some(dtype::FLOAT16 | dtype::BFLOAT16 | dtype::INT16 | dtype::UINT16) => 2.0,
        _ => 1.0,
    }
}

fn dim_size(d: &Dim) -> f64 {
    match d {
        Dim::Static(n) => *n as f64,
        Dim::Sym(s) => symbolic_size(s.as_str()),
        Dim::Unknown => SYMBOLIC_DIM,
    }
}

/// A product of symbols and numbers (`4*s0`, `s0*s1`) counts each symbol
/// as [`SYMBOLIC_DIM`], so that a merged dim weighs what the dims it merged
/// do; any other expression is one symbolic dim.
fn symbolic_size(s: &str) -> f64 {
    if s.contains([' ', '(', '/']) {
        return SYMBOLIC_DIM;
    }
    s.split('*').map(|f| f.parse::<f64>().unwrap_or(SYMBOLIC_DIM)).product()
}

/// Elements of a value (unknown rank: [`SYMBOLIC_DIM`]^2).
pub fn elements(ty: &TyInfo) -> f64 {
    match &ty.dims {
        Some(d) => d.iter().map(dim_size).product(),
        None => SYMBOLIC_DIM * SYMBOLIC_DIM,
    }
}

fn bytes(ty: Option<&TyInfo>) -> f64 {
    ty.map_or(0.0, |t| elements(t) * elem_bytes(t.elem))
}

/// The cost of `node` alone, given its own e-class's data and its operands'.
pub fn node_cost(node: &ONode, own: &Data, inputs: &[&Data]) -> f64 {
    let ONode::Op(head, _) = node else { return 1.0 };
    let op = head.op.as_str();
    // Initializers computed by the writer (`onnx.weight_transform`) cost
    // nothing at run time, like the initializers they read.
    if inputs.is_empty() || (op == "weight_transform" && head.domain.as_str().is_empty()) {
        return 1.0;
    }
    let outputs: Vec<&TyInfo> = match (&own.ty, &own.results) {
        (Some(t), _) => vec![t],
        (None, Some(r)) => r.iter().collect(),
        _ => vec![],
    };
    let out_elems: f64 = outputs.iter().map(|t| elements(t)).sum();
    let moved: f64 = if matches!(op, "Reshape" | "Squeeze" | "Unsqueeze" | "Flatten" | "Identity" | "Shape" | "Size") {
        // Free, but for a tie-breaker: the view of the narrower element
        // type wins (a DequantizeLinear after the view, not before: the
        // runtime's QDQ fusions see the integers move).
        outputs.iter().map(|t| elem_bytes(t.elem)).sum::<f64>()
    } else {
        inputs.iter().map(|d| bytes(d.ty.as_ref())).sum::<f64>() + outputs.iter().map(|t| bytes(Some(t))).sum::<f64>()
    };
    let dims = |i: usize| inputs.get(i).and_then(|d| d.ty.as_ref()).and_then(|t| t.dims.clone());
    let flops = match op {
        "MatMul" | "Gemm" => {
            let k = dims(0).and_then(|d| d.last().map(dim_size)).unwrap_or(SYMBOLIC_DIM);
            2.0 * out_elems * k
        }
        "Conv" => {
            let kernel: f64 = dims(1).map_or(9.0 * SYMBOLIC_DIM, |d| d.iter().skip(1).map(dim_size).product());
            // Weight [M, C/group, kH, ...]: C/group * kH * ... MACs per output element.
            let _ = head.int("group");
            2.0 * out_elems * kernel
        }
        "LayerNormalization" | "RMSNormalization" | "BatchNormalization" | "Softmax" | "LogSoftmax" => 5.0 * out_elems,
        _ => out_elems,
    };
    // onnxruntime's Skip(Simplified)LayerNormalization (target onnxruntime)
    // also stands for the Add of its first two inputs: after extraction
    // that Add, when it is used elsewhere, becomes the op's fourth output
    // (`optimizer::skip_sum`), so the op saves a node's overhead.
    let absorbed = match (head.domain.as_str(), op) {
        ("com.microsoft", "SkipSimplifiedLayerNormalization" | "SkipLayerNormalization") => NODE_OVERHEAD,
        _ => 0.0,
    };
    NODE_OVERHEAD - absorbed + moved + FLOPS_WEIGHT * flops
}
