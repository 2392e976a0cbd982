//! What the e-graph knows about each e-class: the element type and shape of
//! the value (static dims, symbolic dims named like the capture's symbols —
//! the same strings `onnx-shape-inference` and the tensor encodings use),
//! and the contents of small constants.
//!
//! All e-nodes of an e-class compute the same value, so they share one type.
//! Merging two e-classes whose types contradict each other (different element
//! types, ranks or static dims) means a rule claimed two different values
//! equal: the merge is recorded in [`OnnxAnalysis::conflicts`] (the pass
//! reports it and the rule applier refuses such unions before they happen,
//! see `rules::RuleApplier`).

use super::lang::{dtype, AttrValue, ONode, Tensor, Values};
use egg::{Analysis, DidMerge, EGraph, Id, Symbol};
use std::sync::Arc;

/// Constants with at most this many elements have their values in the
/// analysis (rules look at them: epsilon, ones, axes, shapes).
pub const MAX_CONST_ELEMENTS: usize = 64;

/// One dimension of a shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Static(i64),
    /// A symbolic size (`s77`, `2*s77`): equal names are equal sizes.
    Sym(Symbol),
    Unknown,
}

impl Dim {
    /// True when both are known to be the same size.
    pub fn same(&self, other: &Dim) -> bool {
        match (self, other) {
            (Dim::Static(a), Dim::Static(b)) => a == b,
            (Dim::Sym(a), Dim::Sym(b)) => a == b,
            _ => false,
        }
    }

    /// False when they are known to differ.
    fn compatible(&self, other: &Dim) -> bool {
        !matches!((self, other), (Dim::Static(a), Dim::Static(b)) if a != b)
    }

    fn known(&self) -> usize {
        match self {
            Dim::Static(_) => 2,
            Dim::Sym(_) => 1,
            Dim::Unknown => 0,
        }
    }
}

/// The type of a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TyInfo {
    /// ONNX data type code; `None` for values that are not tensors (`none`).
    pub elem: Option<i32>,
    /// `None` when the rank is unknown.
    pub dims: Option<Vec<Dim>>,
    /// The converter's handle of the exact type it read (an MLIR type),
    /// reused when rebuilding; rules leave it `None`.
    pub raw: Option<u64>,
}

impl TyInfo {
    pub fn tensor(elem: i32, dims: Vec<Dim>) -> TyInfo {
        TyInfo { elem: Some(elem), dims: Some(dims), raw: None }
    }

    pub fn rank(&self) -> Option<usize> {
        self.dims.as_ref().map(Vec::len)
    }

    /// The static shape, if every dim is static.
    pub fn static_shape(&self) -> Option<Vec<i64>> {
        self.dims.as_ref()?.iter().map(|d| if let Dim::Static(n) = d { Some(*n) } else { None }).collect()
    }

    /// True when both are known to be the same type (element type, rank and
    /// every dim known equal).
    pub fn same(&self, other: &TyInfo) -> bool {
        // One MLIR type is not one shape when it has unknown dims
        // (`tensor<?x8xf32>` without a symbol, `tensor<*xf32>`): two values
        // of that type may differ in size (imported ONNX models have many).
        let fully_known = match &self.dims {
            Some(dims) => !dims.contains(&Dim::Unknown),
            None => self.elem.is_none(),
        };
        if self.raw.is_some() && self.raw == other.raw && fully_known {
            return true;
        }
        self.elem.is_some()
            && self.elem == other.elem
            && match (&self.dims, &other.dims) {
                (Some(a), Some(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
                _ => false,
            }
    }

    /// False when they are known to differ.
    pub fn compatible(&self, other: &TyInfo) -> bool {
        if self.elem != other.elem {
            return false;
        }
        match (&self.dims, &other.dims) {
            (Some(a), Some(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.compatible(y)),
            _ => true,
        }
    }

    fn known(&self) -> usize {
        self.dims.as_ref().map_or(0, |d| 1 + d.iter().map(Dim::known).sum::<usize>())
    }
}

/// Per e-class data.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// The value's type; `None` when unknown or for the tuple of a
    /// multi-result op.
    pub ty: Option<TyInfo>,
    /// The result types of a multi-result op (its tuple e-class).
    pub results: Option<Vec<TyInfo>>,
    /// The value, when it is a small constant.
    pub konst: Option<Arc<Tensor>>,
}

/// The analysis: per-class data plus what the run needs to know.
#[derive(Clone, Debug)]
pub struct OnnxAnalysis {
    /// The opset the module targets (rules producing newer ops check it).
    pub opset: u32,
    /// Merges of contradicting types: `(type a, type b)` as text.
    pub conflicts: Vec<String>,
    /// Unions a rule asked for and the applier refused (types known to
    /// differ): `rule: types`.
    pub refused: Vec<String>,
}

impl OnnxAnalysis {
    pub fn new(opset: u32) -> OnnxAnalysis {
        OnnxAnalysis { opset, conflicts: Vec::new(), refused: Vec::new() }
    }
}

pub type OnnxEGraph = EGraph<ONode, OnnxAnalysis>;

/// The data a node has by itself (before the converter or a rule adds the
/// type they know): constants know their type and value.
fn data_of_node(node: &ONode) -> Data {
    let mut data = Data::default();
    if let ONode::Op(head, children) = node {
        // A constant, or an initializer whose values are known (a constant
        // buffer: `onnx.initializer {name, value}`, aten_ir::WEIGHT_VALUE_ATTR).
        let constant = head.is("Constant") && head.attrs.len() == 1;
        let known_initializer = head.is("initializer") && head.attrs.len() == 2 && head.attr("name").is_some();
        if children.is_empty() && (constant || known_initializer) {
            if let Some(AttrValue::Tensor(t)) = head.attr("value") {
                data.ty = Some(TyInfo::tensor(t.elem, t.shape.iter().map(|&d| Dim::Static(d)).collect()));
                if t.values.is_some() {
                    data.konst = Some(t.clone());
                }
            }
        }
    }
    data
}

impl Analysis<ONode> for OnnxAnalysis {
    type Data = Data;

    fn make(_egraph: &mut OnnxEGraph, enode: &ONode, _id: Id) -> Data {
        data_of_node(enode)
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let mut changed_a = false;
        let mut changed_b = false;
        match (&mut a.ty, b.ty) {
            (None, Some(t)) => {
                a.ty = Some(t);
                changed_a = true;
            }
            (Some(_), None) => changed_b = true,
            (Some(x), Some(y)) => {
                if !x.compatible(&y) {
                    self.conflicts.push(format!("{x:?} vs {y:?}"));
                }
                if y.known() > x.known() {
                    *x = y;
                    changed_a = true;
                } else if y.known() < x.known() {
                    changed_b = true;
                }
            }
            (None, None) => {}
        }
        if a.results.is_none() && b.results.is_some() {
            a.results = b.results;
            changed_a = true;
        }
        match (&a.konst, b.konst) {
            (None, Some(k)) => {
                a.konst = Some(k);
                changed_a = true;
            }
            (Some(_), None) => changed_b = true,
            _ => {}
        }
        DidMerge(changed_a, changed_b)
    }
}

/// Adds `ty` to what the class of `id` knows (the converter: the type MLIR
/// recorded; rules: the type of a new value).
pub fn add_type(egraph: &mut OnnxEGraph, id: Id, ty: TyInfo) {
    let mut data = egraph[id].data.clone();
    let before = data.ty.clone();
    let _ = egraph.analysis.merge(&mut data, Data { ty: Some(ty), ..Data::default() });
    if data.ty != before {
        egraph.set_analysis_data(id, data);
    }
}

/// Sets the result types of a multi-result op's tuple class.
pub fn set_results(egraph: &mut OnnxEGraph, id: Id, results: Vec<TyInfo>) {
    if egraph[id].data.results.is_none() {
        let mut data = egraph[id].data.clone();
        data.results = Some(results);
        egraph.set_analysis_data(id, data);
    }
}

/// True for element types whose every value the other represents exactly.
pub fn embeds(from: i32, to: i32) -> bool {
    use dtype::*;
    if from == to {
        return true;
    }
    match from {
        BOOL => matches!(
            to,
            UINT8 | INT8 | UINT16 | INT16 | UINT32 | INT32 | UINT64 | INT64 | FLOAT16 | BFLOAT16 | FLOAT | DOUBLE
        ),
        UINT8 => matches!(to, UINT16 | INT16 | UINT32 | INT32 | UINT64 | INT64 | FLOAT16 | BFLOAT16 | FLOAT | DOUBLE),
        INT8 => matches!(to, INT16 | INT32 | INT64 | FLOAT16 | BFLOAT16 | FLOAT | DOUBLE),
        UINT16 => matches!(to, UINT32 | INT32 | UINT64 | INT64 | FLOAT | DOUBLE),
        INT16 => matches!(to, INT32 | INT64 | FLOAT | DOUBLE),
        UINT32 => matches!(to, UINT64 | INT64 | DOUBLE),
        INT32 => matches!(to, INT64 | DOUBLE),
        FLOAT16 | BFLOAT16 => matches!(to, FLOAT | DOUBLE),
        FLOAT => to == DOUBLE,
        _ => false,
    }
}

/// The values of a small constant class, if known.
pub fn const_values(egraph: &OnnxEGraph, id: Id) -> Option<&Values> {
    egraph[id].data.konst.as_ref()?.values.as_ref()
}
