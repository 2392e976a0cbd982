//! `onnx-shape-inference`: gives onnx results whose type is unknown or
//! partly known (rules build intermediates as `tensor<*xT>`) their rank,
//! static dims and symbolic dims. Symbolic dims travel in the tensor
//! encoding like the importer's (`tensor<?x16xf32, ["s77"]>`); shape tensors
//! built from `Shape`/`Concat`/`Gather`/`Slice` are tracked element by
//! element, so a `Reshape` to a computed shape still gets its dims. Known
//! dims are never changed; a result keeps its type when nothing more is
//! known.

use crate::{
    ir::{self, dense_i64_values, nested_ops},
    lowering::builder::{element_type, rank},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
pub use aten2onnx_ir::shape::{remaining_dim, shape_of, size_of, tensor_type, text, Dim, Shape};
use melior::ir::{
    attribute::AttributeLike, operation::OperationLike, r#type::TypeLike, Attribute, OperationRef, RegionLike, Type,
    Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::HashMap;

static ID: PassId = PassId::new();

/// The static dims an imported model declares for a node's results (its
/// `value_info` and graph outputs), one `2x?x4` string per result (empty:
/// none declared). onnxruntime never checks them, so they are claims: a
/// static dim that contradicts what the op computes is an error (the model
/// is inconsistent), and otherwise they are dropped, never taken as facts
/// (a value_info claiming `[1, 4]` for an `Expand` to `[N, 4]` would make
/// the Expand a no-op).
pub const DECLARED_DIMS_ATTR: &str = "onnx.declared_dims";

pub const INFO: PassInfo = PassInfo {
    name: "onnx-shape-inference",
    summary: "Infer ranks, static and symbolic dims of onnx results",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: ShapeInference, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct ShapeInference;

impl ProjectPass for ShapeInference {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        let mut values = HashMap::new();
        let mut ok = true;
        infer(op, &mut values, &mut ok);
        ir::sync_function_types(op);
        if ok {
            Ok(())
        } else {
            Err(())
        }
    }
}

/// Known contents of 1-D int64 shape tensors, by value.
type ShapeValues = HashMap<usize, Vec<Dim>>;

fn key(v: Value<'_, '_>) -> usize {
    v.to_raw().ptr as usize
}

fn broadcast_dim(a: &Dim, b: &Dim) -> Dim {
    match (a, b) {
        (x, y) if x == y => x.clone(),
        (Dim::Static(1), y) => y.clone(),
        (x, Dim::Static(1)) => x.clone(),
        (Dim::Static(n), _) | (_, Dim::Static(n)) => Dim::Static(*n),
        // Two sizes that may differ: on every run that does not fail, one
        // is 1 or both are equal, so the result is their max, a size of its
        // own (named in a fixed order, so that the same pair gives the same
        // symbol wherever it meets). Equal names are not assumed equal sizes
        // (an imported model's dim_params are only claims).
        (Dim::Sym(x), Dim::Sym(y)) => Dim::Sym(aten2onnx_ir::shape::extremum("max", x, y)),
        // A size next to an unknown one: the unknown may be larger (the
        // symbol 1), so nothing is known.
        _ => Dim::Unknown,
    }
}

fn broadcast(shapes: &[Shape]) -> Shape {
    let rank = shapes.iter().map(Vec::len).max().unwrap_or(0);
    (0..rank)
        .map(|i| {
            shapes.iter().fold(Dim::Static(1), |acc, s| {
                let offset = rank - s.len();
                if i < offset {
                    acc
                } else {
                    broadcast_dim(&acc, &s[i - offset])
                }
            })
        })
        .collect()
}

fn add_dims(a: &Dim, b: &Dim) -> Dim {
    match (a, b) {
        (Dim::Static(x), Dim::Static(y)) => x.checked_add(*y).map_or(Dim::Unknown, Dim::Static),
        (Dim::Static(0), d) | (d, Dim::Static(0)) => d.clone(),
        (Dim::Unknown, _) | (_, Dim::Unknown) => Dim::Unknown,
        (x, y) => Dim::Sym(format!("{} + {}", text(x), text(y))),
    }
}

/// The operand indices of the two matrices of a matrix product op
/// (QLinearMatMul: `a, a_scale, a_zero_point, b, ...`).
fn matmul_operands(op_type: &str) -> Option<(usize, usize)> {
    match op_type {
        "MatMul" | "MatMulInteger" => Some((0, 1)),
        "QLinearMatMul" => Some((0, 3)),
        _ => None,
    }
}

fn norm(axis: i64, rank: usize) -> usize {
    (if axis < 0 { axis + rank as i64 } else { axis }).max(0) as usize
}

/// Operand `i`, unless absent or the "none" placeholder of an omitted
/// optional input.
fn given_operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Option<Value<'c, 'a>> {
    ir::operand_at(op, i).filter(|v| !ir::defining_op(*v).is_some_and(|d| ir::op_name(d) == onnx_ir::NONE_OP))
}

/// The static int64 contents of a value (a constant), if known.
fn const_ints(v: Value<'_, '_>, values: &ShapeValues) -> Option<Vec<i64>> {
    values.get(&key(v))?.iter().map(|d| if let Dim::Static(n) = d { Some(*n) } else { None }).collect()
}

/// Tracked shape tensors hold at most this many elements.
const MAX_TRACKED: usize = 64;

/// The elements of a dense integer attribute of rank <= `max_rank` holding
/// int64 values (at most [`MAX_TRACKED`]).
fn dense_i64_contents(a: Attribute<'_>, max_rank: usize) -> Option<Vec<Dim>> {
    unsafe {
        let raw = a.to_raw();
        if !sys::mlirAttributeIsADenseIntElements(raw) {
            return None;
        }
        let n = sys::mlirElementsAttrGetNumElements(raw);
        let ty = Type::from_raw(sys::mlirAttributeGetType(raw));
        if rank(ty)? > max_rank
            || n > MAX_TRACKED as i64
            || sys::mlirIntegerTypeGetWidth(element_type(ty)?.to_raw()) != 64
        {
            return None;
        }
        Some((0..n as isize).map(|i| Dim::Static(sys::mlirDenseElementsAttrGetInt64Value(raw, i))).collect())
    }
}

/// `f` applied element by element to two tracked tensors of the same length,
/// or one of them a single element (broadcast); `None` when the lengths do
/// not broadcast.
fn elementwise(a: &[Dim], b: &[Dim], f: impl Fn(&Dim, &Dim) -> Option<Dim>) -> Option<Vec<Dim>> {
    let n = match (a.len(), b.len()) {
        (x, y) if x == y => x,
        (1, y) => y,
        (x, 1) => x,
        _ => return None,
    };
    let at = |v: &[Dim], i: usize| v[if v.len() == 1 { 0 } else { i }].clone();
    Some((0..n).map(|i| f(&at(a, i), &at(b, i)).unwrap_or(Dim::Unknown)).collect())
}

/// One element of an integer Add/Sub/Mul/Div/Equal over shape values.
/// Static operands compute exactly (overflow, division by zero or of a
/// negative number: unknown). A symbol is a tensor size, so
/// never negative: it survives `+ 0`, `- 0`, `* 1`, `/ 1`, a sum with
/// another size, and compares unequal to a negative number and equal to
/// itself. Symbolic sums get names (`s0 + 3`) but no symbol is ever made
/// for a value that could be negative.
fn shape_arith(op_type: &str, x: &Dim, y: &Dim) -> Option<Dim> {
    use Dim::{Static, Sym};
    match (op_type, x, y) {
        ("Add", Static(a), Static(b)) => a.checked_add(*b).map(Static),
        ("Sub", Static(a), Static(b)) => a.checked_sub(*b).map(Static),
        ("Mul", Static(a), Static(b)) => a.checked_mul(*b).map(Static),
        // Non-negative only: runtimes differ on the rounding of a negative quotient.
        ("Div", Static(a), Static(b)) if *a >= 0 && *b > 0 => Some(Static(a / b)),
        ("Equal", Static(a), Static(b)) => Some(Static(i64::from(a == b))),
        ("Add", Static(n), d) | ("Add", d, Static(n)) if *n >= 0 && matches!(d, Sym(_)) => Some(add_dims(x, y)),
        ("Add", Sym(_), Sym(_)) => Some(add_dims(x, y)),
        ("Sub", d @ Sym(_), Static(0)) | ("Div", d @ Sym(_), Static(1)) => Some(d.clone()),
        ("Mul", d @ Sym(_), Static(1)) | ("Mul", Static(1), d @ Sym(_)) => Some(d.clone()),
        ("Mul", Static(0), _) | ("Mul", _, Static(0)) => Some(Static(0)),
        ("Equal", Sym(a), Sym(b)) if a == b => Some(Static(1)),
        ("Equal", Sym(_), Static(n)) | ("Equal", Static(n), Sym(_)) if *n < 0 => Some(Static(0)),
        _ => None,
    }
}

/// `Where(c, a, b)` over tracked values (each of one length, or a single
/// element); an element whose condition is unknown is unknown.
fn where_values(c: &[Dim], a: &[Dim], b: &[Dim]) -> Option<Vec<Dim>> {
    let n = c.len().max(a.len()).max(b.len());
    if [c, a, b].iter().any(|v| v.len() != n && v.len() != 1) {
        return None;
    }
    let at = |v: &[Dim], i: usize| v[if v.len() == 1 { 0 } else { i }].clone();
    Some(
        (0..n)
            .map(|i| match at(c, i) {
                Dim::Static(0) => at(b, i),
                Dim::Static(_) => at(a, i),
                _ => Dim::Unknown,
            })
            .collect(),
    )
}

/// Infers result types under `root`; a declared type that contradicts what
/// the op computes from its inputs (another rank, another static dim) is
/// reported as an error and clears `ok` (the input's types are inconsistent:
/// writing them out would give a model ONNX rejects).
fn infer(root: OperationRef<'_, '_>, values: &mut ShapeValues, ok: &mut bool) {
    for op in nested_ops(root) {
        if ir::op_name(op) == "onnx.Scan" {
            refine_scan_slices(op);
        }
        infer(op, values, ok);
        let name = ir::op_name(op);
        let Some(op_type) = name.strip_prefix(onnx_ir::DIALECT_PREFIX) else {
            continue;
        };
        track_shape_values(op, op_type, values);
        if let Err(message) = check_operands(op, op_type).and_then(|()| check_shape_operands(op, op_type, values)) {
            crate::diag::op_error(op, &message);
            *ok = false;
            continue;
        }
        let inferred = infer_op(op, op_type, values);
        if let Err(message) = check_declared_dims(op, &inferred) {
            crate::diag::op_error(op, &message);
            *ok = false;
            continue;
        }
        for (i, shape) in inferred.into_iter().enumerate() {
            let Some(shape) = shape else { continue };
            let Some(result) = ir::result_at(op, i) else { continue };
            if let Some(known) = shape_of(result.r#type()) {
                let static_mismatch =
                    known.iter().zip(&shape).any(|pair| matches!(pair, (Dim::Static(a), Dim::Static(b)) if a != b));
                if known.len() != shape.len() || static_mismatch {
                    let computed: Vec<String> = shape.iter().map(text).collect();
                    crate::diag::op_error(
                        op,
                        &format!(
                            "result #{i} is declared {} but the op computes shape [{}] from its inputs",
                            result.r#type(),
                            computed.join(", ")
                        ),
                    );
                    *ok = false;
                    continue;
                }
            }
            // A returned value keeps the type the function signature states,
            // unless that has no rank (an ONNX input whose output lacks a
            // shape) or unknown dims: the signature then takes the inferred
            // type, dim by dim where it knew nothing.
            if returned(result.into()) && shape_of(result.r#type()).is_some_and(|k| !k.contains(&Dim::Unknown)) {
                continue;
            }
            let old = result.r#type();
            let Some(element) = element_type(old) else {
                continue;
            };
            let merged = match shape_of(old) {
                None => shape,
                Some(known) if known.len() == shape.len() => known
                    .iter()
                    .zip(&shape)
                    .map(|(k, s)| match (k, s) {
                        (Dim::Unknown, s) => s.clone(),
                        (k, _) => k.clone(),
                    })
                    .collect(),
                Some(_) => continue,
            };
            // `to_ref` borrows the ContextRef: keep it alive as long as the context is used.
            let context_ref = op.context();
            let context = unsafe { context_ref.to_ref() };
            let new = tensor_type(context, &merged, element);
            if new != old {
                unsafe { sys::mlirValueSetType(result.to_raw(), new.to_raw()) };
            }
        }
    }
}

/// Checks the claims of `DECLARED_DIMS_ATTR` against the inferred shapes,
/// then removes the attribute (whatever the outcome: it is read once).
fn check_declared_dims(op: OperationRef<'_, '_>, inferred: &[Option<Shape>]) -> Result<(), String> {
    let Ok(attr) = op.attribute(DECLARED_DIMS_ATTR) else { return Ok(()) };
    let claims = ir::string_array(attr).unwrap_or_default();
    unsafe {
        sys::mlirOperationRemoveAttributeByName(
            op.to_raw(),
            sys::MlirStringRef { data: DECLARED_DIMS_ATTR.as_ptr() as *const _, length: DECLARED_DIMS_ATTR.len() },
        )
    };
    for (i, (claim, shape)) in claims.iter().zip(inferred).enumerate() {
        let (Some(shape), false) = (shape, claim.is_empty()) else { continue };
        let declared: Vec<Option<i64>> = claim.split('x').map(|d| d.parse().ok()).collect();
        let conflict = declared.len() != shape.len()
            || declared.iter().zip(shape).any(|pair| matches!(pair, (Some(a), Dim::Static(b)) if a != b));
        if conflict {
            let show = |d: &Option<i64>| d.map_or("?".to_string(), |n| n.to_string());
            return Err(format!(
                "result #{i} is declared [{}] but the op computes shape [{}] from its inputs",
                declared.iter().map(show).collect::<Vec<_>>().join(", "),
                shape.iter().map(text).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    Ok(())
}

/// Records the element-wise contents of 1-D int64 shape tensors.
fn track_shape_values(op: OperationRef<'_, '_>, op_type: &str, values: &mut ShapeValues) {
    let Some(result) = ir::result_at(op, 0) else { return };
    let operand_values = |i: usize| ir::operand_at(op, i).and_then(|v| values.get(&key(v)).cloned());
    let tracked: Option<Vec<Dim>> = match op_type {
        "Constant" => op.attribute("value").ok().and_then(|a| dense_i64_contents(a, 1)),
        // A filled shape tensor (torch.onnx's TorchScript exporter builds
        // `Where(Equal(shape, -1), ones, shape)` from these).
        "ConstantOfShape" => {
            let shape = ir::operand_at(op, 0).and_then(|v| const_ints(v, values));
            let fill = op.attribute("value").ok().and_then(|a| dense_i64_contents(a, 1));
            match (shape, fill) {
                (Some(shape), Some(fill)) if shape.len() <= 1 && fill.len() == 1 => {
                    let n = shape.first().copied().unwrap_or(1);
                    (0..=MAX_TRACKED as i64).contains(&n).then(|| vec![fill[0].clone(); n as usize])
                }
                _ => None,
            }
        }
        "Add" | "Sub" | "Mul" | "Div" | "Equal" => match (operand_values(0), operand_values(1)) {
            (Some(a), Some(b)) => elementwise(&a, &b, |x, y| shape_arith(op_type, x, y)),
            _ => None,
        },
        "Where" => match (operand_values(0), operand_values(1), operand_values(2)) {
            (Some(c), Some(a), Some(b)) => where_values(&c, &a, &b),
            _ => None,
        },
        // A shape tensor flattened (`Reshape(shape, [-1])`) or made a scalar.
        "Reshape" => match (operand_values(0), ir::operand_at(op, 1).and_then(|v| const_ints(v, values))) {
            (Some(d), Some(t)) if t.len() == 1 && (t[0] == -1 || t[0] == d.len() as i64) => Some(d),
            (Some(d), Some(t)) if t.is_empty() && d.len() == 1 => Some(d),
            _ => None,
        },
        "Shape" => ir::operand_at(op, 0).and_then(|x| shape_of(x.r#type())).map(|s| {
            let r = s.len();
            let start = norm(crate::ir::int_attribute(op, "start").unwrap_or(0), r).min(r);
            let end = norm(crate::ir::int_attribute(op, "end").unwrap_or(r as i64), r).min(r);
            s[start..end.max(start)].to_vec()
        }),
        "Concat" => (0..op.operand_count()).map(operand_values).collect::<Option<Vec<_>>>().map(|v| v.concat()),
        "Identity" => operand_values(0),
        // Sizes stay exact through 32/64-bit integer casts and become 0/1
        // through a bool cast; a float cast is not followed (a float Div
        // does not truncate like the tracked one), nor a narrowing one.
        "Cast" => {
            let width = element_type(result.r#type()).and_then(|e| unsafe {
                sys::mlirTypeIsAInteger(e.to_raw()).then(|| sys::mlirIntegerTypeGetWidth(e.to_raw()))
            });
            match (width, operand_values(0)) {
                (Some(64), Some(v)) => Some(v),
                (Some(32), Some(v)) => Some(
                    v.into_iter()
                        .map(|d| match d {
                            Dim::Static(n) if i32::try_from(n).is_err() => Dim::Unknown,
                            d => d,
                        })
                        .collect(),
                ),
                (Some(1), Some(v)) => Some(
                    v.into_iter()
                        .map(|d| match d {
                            Dim::Static(n) => Dim::Static(i64::from(n != 0)),
                            _ => Dim::Unknown,
                        })
                        .collect(),
                ),
                _ => None,
            }
        }
        "Gather" if crate::ir::int_attribute(op, "axis").unwrap_or(0) == 0 => {
            let data = operand_values(0);
            let idx = ir::operand_at(op, 1).and_then(|v| const_ints(v, values));
            match (data, idx) {
                (Some(d), Some(i)) if rank(result.r#type()) == Some(1) || i.len() == 1 => {
                    i.iter().map(|&k| d.get(norm(k, d.len())).cloned()).collect()
                }
                _ => None,
            }
        }
        "Slice" => {
            let data = operand_values(0);
            let s = ir::operand_at(op, 1).and_then(|v| const_ints(v, values));
            let e = ir::operand_at(op, 2).and_then(|v| const_ints(v, values));
            match (data, s, e) {
                (Some(d), Some(s), Some(e)) if s.len() == 1 && e.len() == 1 && op.operand_count() <= 4 => {
                    let n = d.len() as i64;
                    let a = (if s[0] < 0 { s[0] + n } else { s[0] }).clamp(0, n) as usize;
                    let b = (if e[0] < 0 { e[0] + n } else { e[0].min(n) }).clamp(0, n) as usize;
                    Some(d[a..b.max(a)].to_vec())
                }
                _ => None,
            }
        }
        "Unsqueeze" | "Squeeze" => operand_values(0),
        _ => None,
    };
    if let Some(t) = tracked {
        values.insert(key(result.into()), t);
    }
}

/// Result shapes of one op (`None` = nothing known for that result).
/// True when a window attribute is so large that the window's span
/// (`dilation * (kernel - 1) + 1`) or the padded size overflows i64.
fn window_overflows(op: OperationRef<'_, '_>) -> bool {
    let ints = |name: &str| op.attribute(name).ok().and_then(dense_i64_values).unwrap_or_default();
    let (mut kernel, dilations, pads) = (ints("kernel_shape"), ints("dilations"), ints("pads"));
    if kernel.is_empty() {
        // A convolution's kernel is its weight's spatial dims.
        let weight = ir::operand_at(op, 1).and_then(|w| shape_of(w.r#type())).unwrap_or_default();
        kernel = weight.iter().skip(2).filter_map(|d| if let Dim::Static(k) = d { Some(*k) } else { None }).collect();
    }
    let span = kernel
        .iter()
        .zip(dilations.iter().chain(std::iter::repeat(&1)))
        .any(|(&k, &d)| k.checked_sub(1).and_then(|k| k.checked_mul(d)).and_then(|s| s.checked_add(1)).is_none());
    let pad_sum = pads.iter().try_fold(0i64, |acc, &p| acc.checked_add(p)).is_none();
    span || pad_sum
}

/// A convolution's input channels against its weight and group.
fn check_conv_channels(op: OperationRef<'_, '_>, op_type: &str) -> Result<(), String> {
    let input = |i: usize| input_shape(op, i);
            let (Some(x), Some(w)) = (input(0), input(1)) else { return Ok(()) };
            if x.len() != w.len() || x.len() < 3 {
                return Err(format!("input {} and weight {} need the same rank, at least 3", show(&x), show(&w)));
            }
            let group = crate::ir::int_attribute(op, "group").unwrap_or(1);
            let channels = if op_type == "Conv" {
                match &w[1] {
                    Dim::Static(c) => Some(c.saturating_mul(group)),
                    _ => None,
                }
            } else {
                match &w[0] {
                    Dim::Static(c) => Some(*c),
                    _ => None,
                }
            };
            if let (Dim::Static(c), Some(expected)) = (&x[1], channels) {
                if *c != expected {
                    return Err(format!(
                        "input {} has {c} channels; its weight {} with group {group} takes {expected}",
                        show(&x),
                        show(&w)
                    ));
                }
            }
            Ok(())
}

/// The kernel of a pooling or convolution op with an input of rank `rank`:
/// its `kernel_shape`, else (a convolution) its weight `w`'s spatial dims,
/// when static and of that rank (a weight of another rank is reported by
/// the channel check).
fn window_kernel(op: OperationRef<'_, '_>, rank: usize, w: Option<&Shape>) -> Option<Vec<i64>> {
    match op.attribute("kernel_shape").ok().and_then(dense_i64_values) {
        Some(k) => Some(k),
        None => w
            .filter(|w| w.len() == rank && rank >= 2)
            .and_then(|w| w[2..].iter().map(|d| if let Dim::Static(k) = d { Some(*k) } else { None }).collect()),
    }
}

/// A window (dilated kernel) longer than its static padded input along a
/// spatial axis: torch refuses such a convolution or pooling ("kernel size
/// can't be greater than actual input size"), and ONNX's output size
/// formula gives a negative dim. Explicit pads only (auto_pad NOTSET).
fn window_larger_than_input(op: OperationRef<'_, '_>) -> Option<String> {
    let auto_pad = op.attribute("auto_pad").ok().and_then(ir::string_value).unwrap_or_default();
    if !(auto_pad.is_empty() || auto_pad == "NOTSET") {
        return None;
    }
    let x = input_shape(op, 0)?;
    let spatial = x.len().checked_sub(2)?;
    let ints = |name: &str| op.attribute(name).ok().and_then(dense_i64_values);
    let kernel = window_kernel(op, x.len(), input_shape(op, 1).as_ref())?;
    let dilations = ints("dilations").unwrap_or_else(|| vec![1; spatial]);
    let pads = ints("pads").unwrap_or_else(|| vec![0; 2 * spatial]);
    if kernel.len() != spatial || dilations.len() != spatial || pads.len() != 2 * spatial {
        return None;
    }
    (0..spatial).find_map(|i| {
        let Dim::Static(size) = x[i + 2] else { return None };
        let span = dilations[i].checked_mul(kernel[i].checked_sub(1)?)?.checked_add(1)?;
        let padded = size.checked_add(pads[i])?.checked_add(pads[i + spatial])?;
        (padded < span).then(|| {
            format!(
                "its window spans {span} elements along spatial axis {i} (kernel {}, dilation {}), more than the padded input's {padded}",
                kernel[i], dilations[i]
            )
        })
    })
}

/// A Scan body's arguments get the shapes their operands prove where they
/// declare less, so that the body's ops are checked against the real
/// operands: a scan slice is its input without the scanned axis; a state
/// keeps its initial shape at every iteration (ONNX's Scan carries a
/// state's shape 1:1 to its output, and onnxruntime holds it to that).
fn refine_scan_slices(op: OperationRef<'_, '_>) {
    use melior::ir::{BlockLike, RegionLike};
    let Ok(region) = op.region(0) else { return };
    let Some(body) = region.first_block() else { return };
    let scans = crate::ir::int_attribute(op, "num_scan_inputs").unwrap_or(0).max(0) as usize;
    let operands = op.operand_count();
    let states = operands.saturating_sub(scans);
    let axes = op.attribute("scan_input_axes").ok().and_then(ir::dense_i64_values);
    for i in 0..operands {
        let (Some(input), Ok(arg)) = (ir::operand_at(op, i), body.argument(i)) else { continue };
        let Some(mut slice) = shape_of(input.r#type()) else { continue };
        if i >= states {
            let rank = slice.len() as i64;
            let axis = axes.as_ref().and_then(|a| a.get(i - states).copied()).unwrap_or(0);
            let axis = if axis < 0 { axis + rank } else { axis };
            if !(0..rank).contains(&axis) {
                continue;
            }
            slice.remove(axis as usize);
        }
        let old = arg.r#type();
        let Some(element) = element_type(old) else { continue };
        let merged = match shape_of(old) {
            None => slice,
            Some(known) if known.len() == slice.len() => known
                .iter()
                .zip(&slice)
                .map(|(k, s)| if matches!(k, Dim::Unknown) { s.clone() } else { k.clone() })
                .collect(),
            Some(_) => continue, // a rank the body contradicts: the Scan check reports it
        };
        let context_ref = op.context(); // alive while `context` is used
        let context = unsafe { context_ref.to_ref() };
        let new = tensor_type(context, &merged, element);
        if new != old {
            unsafe { sys::mlirValueSetType(arg.to_raw(), new.to_raw()) };
        }
    }
}

/// Shape operands known as values that the op cannot take (onnx's checker
/// refuses the model; onnxruntime fails when it runs): a Reshape target
/// with a 0 (copy the input's dim, unless `allowzero`) past the input's
/// rank, more than one -1, or another number of elements than the input's;
/// an Expand shape that does not broadcast with the input.
fn check_shape_operands(op: OperationRef<'_, '_>, op_type: &str, values: &ShapeValues) -> Result<(), String> {
    if op_type == "Expand" {
        let (Some(x), Some(target)) = (input_shape(op, 0), ir::operand_at(op, 1).and_then(|v| const_ints(v, values)))
        else {
            return Ok(());
        };
        for (d, t) in x.iter().rev().zip(target.iter().rev()) {
            if let Dim::Static(d) = d {
                if *d != 1 && *t != 1 && *d != *t {
                    return Err(format!("Expand's shape {target:?} does not broadcast with the input {}", show(&x)));
                }
            }
        }
        return Ok(());
    }
    if op_type != "Reshape" {
        return Ok(());
    }
    let Some(target) = ir::operand_at(op, 1).and_then(|v| const_ints(v, values)) else { return Ok(()) };
    if target.iter().filter(|&&d| d == -1).count() > 1 {
        return Err(format!("Reshape's shape {target:?} has more than one -1"));
    }
    let allowzero = crate::ir::int_attribute(op, "allowzero").unwrap_or(0) != 0;
    let rank = ir::operand_at(op, 0).and_then(|x| shape_of(x.r#type())).map(|s| s.len());
    if let (false, Some(rank)) = (allowzero, rank) {
        if let Some(at) = target.iter().enumerate().skip(rank).position(|(_, &d)| d == 0) {
            return Err(format!(
                "Reshape's shape {target:?} has a 0 (copy the input's dim) at position {}, past the input's rank {rank}",
                at + rank
            ));
        }
    }
    // The element counts, when every dim is known.
    let Some(x) = input_shape(op, 0) else { return Ok(()) };
    let dims: Option<Vec<i64>> = x.iter().map(|d| if let Dim::Static(n) = d { Some(*n) } else { None }).collect();
    let Some(dims) = dims else { return Ok(()) };
    let numel = dims.iter().try_fold(1i64, |a, &d| a.checked_mul(d));
    let resolved: Option<Vec<i64>> = target
        .iter()
        .enumerate()
        .map(|(i, &t)| if t == 0 && !allowzero { dims.get(i).copied() } else { Some(t) })
        .collect();
    let (Some(numel), Some(resolved)) = (numel, resolved) else { return Ok(()) };
    if resolved.iter().any(|&t| t < -1) {
        return Err(format!("Reshape's shape {target:?} has a negative size other than -1"));
    }
    let known = resolved.iter().filter(|&&t| t != -1).try_fold(1i64, |a, &t| a.checked_mul(t));
    let Some(known) = known else { return Ok(()) };
    let fits = if resolved.contains(&-1) { known != 0 && numel % known == 0 } else { known == numel };
    if !fits {
        return Err(format!("Reshape's shape {target:?} does not hold the {numel} elements of the input {}", show(&x)));
    }
    Ok(())
}

/// A shape as the messages print it (`[2, s0, ?]`).
fn show(s: &Shape) -> String {
    format!("[{}]", s.iter().map(text).collect::<Vec<_>>().join(", "))
}

/// The shape of operand `i` of `op`, when its type has a rank.
fn input_shape(op: OperationRef<'_, '_>, i: usize) -> Option<Shape> {
    ir::operand_at(op, i).and_then(|v| shape_of(v.r#type()))
}

/// Operand shapes an op cannot take (an imported model's, or types edited
/// by hand): static dims that do not broadcast, a convolution weight whose
/// rank or channels do not fit its input, an Einsum equation naming another
/// number of operands. The runtime would reject the model.
fn check_operands(op: OperationRef<'_, '_>, op_type: &str) -> Result<(), String> {
    let input = |i: usize| ir::operand_at(op, i).and_then(|v| shape_of(v.r#type()));
    let show = |s: &Shape| format!("[{}]", s.iter().map(text).collect::<Vec<_>>().join(", "));
    let broadcasts = |shapes: &[Shape]| -> Result<(), String> {
        let rank = shapes.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..rank {
            let mut seen: Option<(i64, &Shape)> = None;
            for s in shapes {
                let Some(Dim::Static(d)) = (i + s.len()).checked_sub(rank).map(|k| &s[k]) else { continue };
                match seen {
                    Some((e, other)) if *d != 1 && e != *d => {
                        return Err(format!("operand shapes {} and {} do not broadcast", show(other), show(s)))
                    }
                    None if *d != 1 => seen = Some((*d, s)),
                    _ => {}
                }
            }
        }
        Ok(())
    };
    match op_type {
        "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Max" | "Min" | "Equal" | "Less" | "LessOrEqual" | "Greater"
        | "GreaterOrEqual" | "And" | "Or" | "Xor" | "Where" | "BitwiseAnd" | "BitwiseOr" | "BitwiseXor" | "Mod"
        | "Sum" | "Mean" | "BitShift" => {
            let shapes: Vec<Shape> = (0..op.operand_count()).filter_map(input).collect();
            broadcasts(&shapes)
        }
        "MatMul" | "MatMulInteger" | "QLinearMatMul" => {
            match matmul_operands(op_type).map(|(i, j)| (input(i), input(j))) {
                // (The contracted dims are checked by the op's verifier.)
                Some((Some(a), Some(b))) if a.len() > 2 && b.len() > 2 => {
                    broadcasts(&[a[..a.len() - 2].to_vec(), b[..b.len() - 2].to_vec()])
                }
                _ => Ok(()),
            }
        }
        // The inputs of a Concat share their rank and every dim but the axis.
        "Concat" => {
            let shapes: Vec<Shape> = (0..op.operand_count()).filter_map(input).collect();
            let Some(first) = shapes.first() else { return Ok(()) };
            let axis = crate::ir::int_attribute(op, "axis").unwrap_or(0);
            for s in &shapes[1..] {
                if s.len() != first.len() {
                    return Err(format!("Concat's inputs {} and {} differ in rank", show(first), show(s)));
                }
            }
            let rank = first.len() as i64;
            if rank == 0 || !(-rank..rank).contains(&axis) {
                return Ok(()); // the op's verifier names a bad axis
            }
            let axis = axis.rem_euclid(rank) as usize;
            for s in &shapes[1..] {
                for (k, (x, y)) in first.iter().zip(s).enumerate() {
                    if let (Dim::Static(x), Dim::Static(y)) = (x, y) {
                        if k != axis && x != y {
                            return Err(format!(
                                "Concat's inputs {} and {} differ in dim {k}, which is not the axis {axis}",
                                show(first),
                                show(s)
                            ));
                        }
                    }
                }
            }
            Ok(())
        }
        "Gemm" => match (input(0), input(1)) {
            (Some(a), Some(b)) if a.len() != 2 || b.len() != 2 => {
                Err(format!("Gemm takes 2-D operands, got {} and {}", show(&a), show(&b)))
            }
            // C broadcasts one way to the [M, N] result.
            (Some(a), Some(b)) => {
                let ta = crate::ir::int_attribute(op, "transA").unwrap_or(0) != 0;
                let tb = crate::ir::int_attribute(op, "transB").unwrap_or(0) != 0;
                if let (Dim::Static(x), Dim::Static(y)) = (&a[usize::from(!ta)], &b[usize::from(tb)]) {
                    if x != y {
                        return Err(format!(
                            "Gemm's operands {} and {} do not multiply: {x} != {y}",
                            show(&a),
                            show(&b)
                        ));
                    }
                }
                let mn = [a[usize::from(ta)].clone(), b[usize::from(!tb)].clone()];
                match input(2) {
                    Some(c) if c.len() > 2 => Err(format!("Gemm's C {} has rank above 2", show(&c))),
                    Some(c) => {
                        for (k, d) in c.iter().enumerate() {
                            let target = &mn[k + 2 - c.len()];
                            if let (Dim::Static(dc), Dim::Static(dt)) = (d, target) {
                                if *dc != 1 && dc != dt {
                                    return Err(format!(
                                        "Gemm's C {} does not broadcast to the result [{}]",
                                        show(&c),
                                        mn.iter().map(text).collect::<Vec<_>>().join(", ")
                                    ));
                                }
                            }
                        }
                        Ok(())
                    }
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        },
        "Conv" | "ConvTranspose" | "MaxPool" | "AveragePool" | "LpPool" if window_overflows(op) => {
            Err("its kernel_shape, dilations or pads overflow 64-bit dims".into())
        }
        // Softmax and its kin normalize along an axis: a 0-d input has none
        // (onnx: "Input rank must be >= 1"; the axis range is checked with
        // the other axis attributes).
        "Softmax" | "LogSoftmax" | "Hardmax" if input(0).is_some_and(|x| x.is_empty()) => {
            Err(format!("{op_type} needs an input of rank 1 or more, not a 0-d one"))
        }
        "Conv" | "MaxPool" | "AveragePool" | "LpPool" => match window_larger_than_input(op) {
            Some(message) => Err(message),
            None if op_type == "Conv" => check_conv_channels(op, op_type),
            None => Ok(()),
        },
        "ConvTranspose" => {
            // output_shape gives the spatial dims: one entry each (onnx).
            let wanted = op.attribute("output_shape").ok().and_then(dense_i64_values);
            if let (Some(wanted), Some(x)) = (wanted, input(0).filter(|x| x.len() >= 3)) {
                if wanted.len() != x.len() - 2 {
                    return Err(format!(
                        "ConvTranspose's output_shape {wanted:?} has {} entries for the {} spatial dims of its input {}",
                        wanted.len(),
                        x.len() - 2,
                        show(&x)
                    ));
                }
            }
            check_conv_channels(op, op_type)
        }
        "Attention" | "preview.FlexAttention" => {
            let kind = op_type.trim_start_matches("preview.");
            for (i, name) in [(0, "query"), (1, "key"), (2, "value")] {
                if let Some(s) = input(i).filter(|s| s.len() != 3 && s.len() != 4) {
                    return Err(format!("{kind}'s {name} {} must be 3-D or 4-D", show(&s)));
                }
            }
            // One batch; key and value of one sequence (and, 4-D, the same
            // heads); query and key of one head size (4-D).
            let (Some(q), Some(k), Some(v)) = (input(0), input(1), input(2)) else { return Ok(()) };
            let differ = |a: &Dim, b: &Dim| matches!((a, b), (Dim::Static(x), Dim::Static(y)) if x != y);
            let mut pairs = vec![("query", &q, 0, "key", &k, 0), ("query", &q, 0, "value", &v, 0)];
            if k.len() == v.len() {
                let seq = k.len() - 2;
                pairs.push(("key", &k, seq, "value", &v, seq));
                if k.len() == 4 {
                    pairs.push(("key", &k, 1, "value", &v, 1));
                }
            }
            if q.len() == 4 && k.len() == 4 {
                pairs.push(("query", &q, 3, "key", &k, 3));
            }
            for (an, a, i, bn, b, j) in pairs {
                if differ(&a[i], &b[j]) {
                    return Err(format!("{kind}'s {an} {} and {bn} {} differ in dim {i} / {j}", show(a), show(b)));
                }
            }
            // A past state is a key and a value (onnx's checker refuses one
            // without the other).
            let present = |i: usize| {
                ir::operand_at(op, i)
                    .is_some_and(|v| !ir::defining_op(v).is_some_and(|d| ir::op_name(d) == onnx_ir::NONE_OP))
            };
            if kind == "Attention" && present(4) != present(5) {
                return Err("Attention's past_key and past_value must be given together".into());
            }
            // Packed 3-D operands hold whole heads.
            if kind == "Attention" {
                for (i, name, heads) in
                    [(0, "query", "q_num_heads"), (1, "key", "kv_num_heads"), (2, "value", "kv_num_heads")]
                {
                    let (Some(x), Some(h)) = (input(i), crate::ir::int_attribute(op, heads)) else { continue };
                    if let (3, Some(Dim::Static(w))) = (x.len(), x.last()) {
                        if h <= 0 || w % h != 0 {
                            return Err(format!(
                                "Attention's {name} {} does not split into {heads} = {h} heads",
                                show(&x)
                            ));
                        }
                    }
                }
            }
            Ok(())
        }
        // The training optimizers take R, T and then n tensors of each of
        // their 3 (Adagrad, Momentum: X, G, H or V) or 4 (Adam: X, G, V, H)
        // groups, and give back n of each group they update.
        "preview.training.Adagrad" | "preview.training.Momentum" | "preview.training.Adam" => {
            let op_type = op_type.trim_start_matches("preview.training.");
            let (groups, updated) = if op_type == "Adam" { (4, 3) } else { (3, 2) };
            let tensors = op.operand_count().saturating_sub(2);
            if tensors == 0 || tensors % groups != 0 {
                return Err(format!(
                    "{op_type} takes R, T and n tensors of each of its {groups} groups; it has {} inputs",
                    op.operand_count()
                ));
            }
            let n = tensors / groups;
            if op.result_count() != updated * n {
                return Err(format!(
                    "{op_type} of {n} tensor(s) gives {} results, not {}",
                    op.result_count(),
                    updated * n
                ));
            }
            Ok(())
        }
        // The class weights are a vector; the target is the scores without
        // their class axis ([N, C, d1..] -> [N, d1..]).
        "SoftmaxCrossEntropyLoss" | "NegativeLogLikelihoodLoss" => {
            if let Some(w) = input(2).filter(|w| w.len() != 1) {
                return Err(format!("{op_type}'s weight {} must be 1-D", show(&w)));
            }
            // One weight per class (the scores' axis 1).
            if let (Some(w), Some(x)) = (input(2), input(0)) {
                if let (Some(Dim::Static(n)), Some(Dim::Static(c))) = (w.first(), x.get(1)) {
                    if n != c {
                        return Err(format!(
                            "{op_type}'s weight {} has {n} entries for the {c} classes of its scores {}",
                            show(&w),
                            show(&x)
                        ));
                    }
                }
            }
            if let (Some(x), Some(t)) = (input(0), input(1)) {
                let mut want = x.clone();
                if want.len() >= 2 {
                    want.remove(1);
                }
                let differ = want.len() != t.len()
                    || want.iter().zip(&t).any(|p| matches!(p, (Dim::Static(a), Dim::Static(b)) if a != b));
                if x.len() < 2 || differ {
                    return Err(format!(
                        "{op_type}'s target {} is not its scores {} without the class axis",
                        show(&t),
                        show(&x)
                    ));
                }
            }
            Ok(())
        }
        // Every nodes_* attribute has one entry per node (nodes_splits'
        // length), leaf_targetids one per leaf weight (onnx's checker).
        "ml.TreeEnsemble" => {
            let tensor_len = |name: &str| -> Option<i64> {
                let attr = op.attribute(name).ok()?;
                let ty = unsafe { melior::ir::Type::from_raw(sys::mlirAttributeGetType(attr.to_raw())) };
                match crate::types::dims(ty)?.as_slice() {
                    [Some(n)] => Some(*n),
                    _ => None,
                }
            };
            let ints_len = |name: &str| op.attribute(name).ok().and_then(ir::dense_i64_values).map(|v| v.len() as i64);
            if let Some(n) = tensor_len("nodes_splits") {
                for name in [
                    "nodes_featureids",
                    "nodes_truenodeids",
                    "nodes_falsenodeids",
                    "nodes_trueleafs",
                    "nodes_falseleafs",
                    "nodes_missing_value_tracks_true",
                ] {
                    if let Some(len) = ints_len(name).filter(|&len| len != n) {
                        return Err(format!("TreeEnsemble's {name} has {len} entries for {n} nodes (nodes_splits)"));
                    }
                }
                for name in ["nodes_modes", "nodes_hitrates"] {
                    if let Some(len) = tensor_len(name).filter(|&len| len != n) {
                        return Err(format!("TreeEnsemble's {name} has {len} entries for {n} nodes (nodes_splits)"));
                    }
                }
            }
            if let (Some(ids), Some(weights)) = (ints_len("leaf_targetids"), tensor_len("leaf_weights")) {
                if ids != weights {
                    return Err(format!("TreeEnsemble's leaf_targetids has {ids} entries for {weights} leaf_weights"));
                }
            }
            Ok(())
        }
        // `output_shape` holds one size per dim of X.
        "MaxUnpool" => {
            if let (Some(x), Some([Dim::Static(n)])) = (input(0), input(2).as_deref()) {
                if *n != x.len() as i64 {
                    return Err(format!("MaxUnpool's output_shape has {n} entries for an input of rank {}", x.len()));
                }
            }
            Ok(())
        }
        // The carried state holds the last k - 1 positions of a (channels,
        // 1, k) weight.
        "CausalConvWithState" => {
            if let Some(b) = input(2).filter(|b| b.len() != 1) {
                return Err(format!("CausalConvWithState's bias {} must be 1-D (one per channel)", show(&b)));
            }
            if let (Some(w), Some(p)) = (input(1), input(3)) {
                if let (3, 3, Some(Dim::Static(k)), Some(Dim::Static(s))) = (w.len(), p.len(), w.last(), p.last()) {
                    if *s != k - 1 {
                        return Err(format!(
                            "CausalConvWithState's past_state {} does not hold the k - 1 = {} positions of the weight {}",
                            show(&p),
                            k - 1,
                            show(&w)
                        ));
                    }
                }
            }
            Ok(())
        }
        // `scales` / `sizes` hold one entry per resized axis (`axes`, or
        // every axis).
        "Resize" => {
            let Some(x) = input(0) else { return Ok(()) };
            if let Some(axes) = op.attribute("axes").ok().and_then(ir::dense_i64_values) {
                let rank = x.len() as i64;
                let mut seen = std::collections::BTreeSet::new();
                for &a in &axes {
                    if !seen.insert(if a < 0 { a + rank } else { a }) {
                        return Err(format!("Resize's axes {axes:?} name axis {a} more than once"));
                    }
                }
            }
            let axes = op.attribute("axes").ok().and_then(ir::dense_i64_values).map_or(x.len(), |a| a.len());
            for (i, name) in [(2, "scales"), (3, "sizes")] {
                if let Some([Dim::Static(n)]) = input(i).as_deref() {
                    if *n != 0 && *n != axes as i64 {
                        return Err(if op.attribute("axes").is_ok() {
                            format!("Resize's {name} has {n} entries for {axes} resized axes")
                        } else {
                            format!("Resize's {name} has {n} entries for an input of rank {axes}")
                        });
                    }
                }
            }
            Ok(())
        }
        // Packed 3-D operands hold whole heads; a past state is 4-D; the
        // update rule's decay (operand 4) and beta (operand 5) are there.
        "LinearAttention" => {
            for (i, name, heads) in
                [(0, "query", "q_num_heads"), (1, "key", "kv_num_heads"), (2, "value", "kv_num_heads")]
            {
                if let (Some(x), Some(h)) = (input(i), crate::ir::int_attribute(op, heads)) {
                    if let (3, Some(Dim::Static(w))) = (x.len(), x.last()) {
                        if h <= 0 || w % h != 0 {
                            return Err(format!(
                                "LinearAttention's {name} {} does not split into {heads} = {h} heads",
                                show(&x)
                            ));
                        }
                    }
                }
            }
            if let Some(state) = input(3).filter(|s| s.len() != 4) {
                return Err(format!("LinearAttention's past_state {} must be 4-D", show(&state)));
            }
            let rule = op
                .attribute("update_rule")
                .ok()
                .and_then(ir::string_value)
                .unwrap_or_else(|| "gated_delta".to_string());
            let present = |i: usize| {
                ir::operand_at(op, i)
                    .is_some_and(|v| !ir::defining_op(v).is_some_and(|d| ir::op_name(d) == onnx_ir::NONE_OP))
            };
            // Each rule takes exactly its inputs: decay for the gated
            // rules, beta for the delta rules (onnx's checker refuses an
            // extra one too).
            let (decay, beta) = match rule.as_str() {
                "linear" => (false, false),
                "gated" => (true, false),
                "delta" => (false, true),
                "gated_delta" => (true, true),
                _ => {
                    return Err(format!(
                        "LinearAttention's update_rule '{rule}' is not one of 'linear', 'gated', 'delta', 'gated_delta'"
                    ))
                }
            };
            for (i, name, wanted) in [(4, "decay", decay), (5, "beta", beta)] {
                match (wanted, present(i)) {
                    (true, false) => {
                        return Err(format!("LinearAttention's update_rule '{rule}' needs the {name} input"))
                    }
                    (false, true) => {
                        return Err(format!("LinearAttention's update_rule '{rule}' takes no {name} input"))
                    }
                    _ => {}
                }
            }
            if let (Some(q), Some(kv)) =
                (crate::ir::int_attribute(op, "q_num_heads"), crate::ir::int_attribute(op, "kv_num_heads"))
            {
                if q <= 0 || kv <= 0 || q % kv != 0 {
                    return Err(format!(
                        "LinearAttention's q_num_heads = {q} must be a positive multiple of kv_num_heads = {kv}"
                    ));
                }
            }
            // decay: one per key head, or one per key head and key dim;
            // beta: one (broadcast) or one per key head (onnx's inference).
            if let Some(kv) = crate::ir::int_attribute(op, "kv_num_heads").filter(|&kv| kv > 0) {
                let last = |i: usize| match input(i).as_deref() {
                    Some([_, _, Dim::Static(n)]) => Some(*n),
                    _ => None,
                };
                let key_width = last(1).filter(|w| w % kv == 0);
                if let Some(d) = last(4).filter(|_| decay) {
                    let fits = match key_width {
                        Some(width) => d == kv || d == width,
                        None => d == kv || d % kv == 0,
                    };
                    if !fits {
                        return Err(format!(
                            "LinearAttention's decay {} must end in kv_num_heads = {kv} or kv_num_heads * d_k{}",
                            show(&input(4).unwrap_or_default()),
                            key_width.map(|w| format!(" = {w}")).unwrap_or_default()
                        ));
                    }
                }
                if let Some(b) = last(5).filter(|&b| beta && b != 1 && b != kv) {
                    return Err(format!("LinearAttention's beta last dim {b} must be 1 or kv_num_heads = {kv}"));
                }
            }
            Ok(())
        }
        "GridSample" => match (input(0), input(1)) {
            (Some(x), Some(g)) if x.len() != g.len() || g.len() < 3 => {
                Err(format!("GridSample's input {} and grid {} need the same rank, at least 3", show(&x), show(&g)))
            }
            (_, Some(g)) if g.len() >= 3 && matches!(g[g.len() - 1], Dim::Static(d) if d != g.len() as i64 - 2) => {
                Err(format!("GridSample's grid {} must end in a dim of {}", show(&g), g.len() - 2))
            }
            _ => Ok(()),
        },
        // starts, ends, axes and steps: one entry per sliced axis each.
        "Slice" => {
            let lengths: Vec<(&str, i64)> = ["starts", "ends", "axes", "steps"]
                .into_iter()
                .enumerate()
                .filter_map(|(k, name)| match input(k + 1)?.as_slice() {
                    [Dim::Static(n)] => Some((name, *n)),
                    _ => None,
                })
                .collect();
            match lengths.iter().find(|(_, n)| *n != lengths[0].1) {
                Some((name, n)) => {
                    Err(format!("Slice's {name} has {n} entries but {} has {}", lengths[0].0, lengths[0].1))
                }
                None => Ok(()),
            }
        }
        "RNN" | "GRU" | "LSTM" => {
            let hidden = crate::ir::int_attribute(op, "hidden_size");
            if let Some(h) = hidden.filter(|&h| h <= 0) {
                return Err(format!("attribute 'hidden_size' is {h}; it must be positive"));
            }
            let (x, w) = (input(0), input(1));
            if let Some(bad) = [&x, &w].into_iter().flatten().find(|s| s.len() != 3) {
                return Err(format!("X and W must be 3-D, got {}", show(bad)));
            }
            if let (Some(h), Some(w)) = (hidden, &w) {
                if let Dim::Static(rows) = w[1] {
                    if Some(rows) != h.checked_mul(gates(op_type)) {
                        return Err(format!(
                            "W {} has {rows} rows per direction; hidden_size {h} needs {} gates x {h}",
                            show(w),
                            gates(op_type)
                        ));
                    }
                }
            }
            Ok(())
        }
        "If" => {
            // A result's declared rank or static dim that both branches
            // contradict.
            let yields: Vec<Vec<Option<Shape>>> = op
                .regions()
                .filter_map(|r| r.first_block().and_then(crate::control_flow::last_op))
                .map(|t| t.operands().map(|v| shape_of(v.r#type())).collect())
                .collect();
            for (i, result) in op.results().enumerate() {
                let Some(declared) = shape_of(result.r#type()) else { continue };
                let branch: Vec<Option<&Shape>> = yields.iter().map(|y| y.get(i).and_then(Option::as_ref)).collect();
                let [Some(a), Some(b)] = branch[..] else { continue };
                if a.len() == b.len() && a.len() != declared.len() {
                    return Err(format!(
                        "result #{i} is declared {} but both branches yield rank {}",
                        result.r#type(),
                        a.len()
                    ));
                }
                for (k, d) in declared.iter().enumerate() {
                    if let (Dim::Static(d), Some(Dim::Static(x)), Some(Dim::Static(y))) = (d, a.get(k), b.get(k)) {
                        if x == y && x != d && a.len() == declared.len() {
                            return Err(format!(
                                "result #{i} is declared {} but both branches yield dim {k} = {x}",
                                result.r#type()
                            ));
                        }
                    }
                }
            }
            Ok(())
        }
        "Einsum" => {
            let equation = op.attribute("equation").ok().and_then(ir::string_value).unwrap_or_default();
            let terms: Vec<&str> = equation.split("->").next().unwrap_or("").split(',').collect();
            if terms.len() != op.operand_count() {
                return Err(format!(
                    "equation '{equation}' names {} operand(s) but the op has {}",
                    terms.len(),
                    op.operand_count()
                ));
            }
            // Each term labels every dim of its operand ('...' any number).
            for (i, term) in terms.iter().enumerate() {
                let Some(rank) = input(i).map(|s| s.len()) else { continue };
                let letters = term.chars().filter(char::is_ascii_alphabetic).count();
                let fits = if term.contains("...") { letters <= rank } else { letters == rank };
                if !fits {
                    return Err(format!("equation term '{}' does not fit operand #{i} of rank {rank}", term.trim()));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn infer_op(op: OperationRef<'_, '_>, op_type: &str, values: &ShapeValues) -> Vec<Option<Shape>> {
    let input = |i: usize| ir::operand_at(op, i).and_then(|v| shape_of(v.r#type()));
    let one = |s: Option<Shape>| vec![s];
    match op_type {
        "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Max" | "Min" | "Equal" | "Less" | "LessOrEqual" | "Greater"
        | "GreaterOrEqual" | "And" | "Or" | "Xor" | "Where" | "BitwiseAnd" | "BitwiseOr" | "BitwiseXor" | "Mod"
        | "Sum" | "Mean" | "PRelu" | "BitShift" => {
            let shapes: Option<Vec<Shape>> = (0..op.operand_count()).map(input).collect();
            one(shapes.map(|s| broadcast(&s)))
        }
        "Relu"
        | "Neg"
        | "Exp"
        | "Log"
        | "Sqrt"
        | "Sin"
        | "Cos"
        | "Tanh"
        | "Sigmoid"
        | "Erf"
        | "Abs"
        | "Reciprocal"
        | "Floor"
        | "Ceil"
        | "Sign"
        | "Not"
        | "Softplus"
        | "Gelu"
        | "Identity"
        | "LeakyRelu"
        | "Clip"
        | "Softmax"
        | "LogSoftmax"
        | "CumSum"
        | "Trilu"
        | "Cast"
        | "ScatterND"
        | "ScatterElements"
        | "BatchNormalization"
        | "IsInf"
        | "IsNaN"
        | "Round"
        | "Tan"
        | "Asin"
        | "Acos"
        | "Atan"
        | "Sinh"
        | "Cosh"
        | "Asinh"
        | "Acosh"
        | "Atanh"
        | "Elu"
        | "Selu"
        | "Celu"
        | "HardSigmoid"
        | "HardSwish"
        | "Mish"
        | "Softsign"
        | "ThresholdedRelu"
        | "BitwiseNot"
        | "Shrink"
        | "CastLike"
        | "RandomUniformLike"
        | "RandomNormalLike"
        | "Bernoulli"
        | "EyeLike"
        | "CumProd"
        | "Scatter"
        | "QuantizeLinear"
        | "DequantizeLinear"
        | "DynamicQuantizeLinear"
        | "InstanceNormalization"
        | "LpNormalization"
        | "Hardmax"
        | "MeanVarianceNormalization"
        | "LRN"
        | "GroupNormalization"
        | "RMSNormalization" => {
            let mut out = vec![None; op.result_count()];
            if let Some(first) = out.first_mut() {
                *first = input(0);
            }
            out
        }
        // The `shape` attribute.
        "RandomUniform" | "RandomNormal" => {
            one(op.attribute("shape").ok().and_then(dense_i64_values).map(|d| d.into_iter().map(Dim::Static).collect()))
        }
        // The target's shape without reduction, one value with it; the
        // log-probabilities (SoftmaxCrossEntropyLoss) have the scores' shape.
        "SoftmaxCrossEntropyLoss" | "NegativeLogLikelihoodLoss" => {
            let reduction = op.attribute("reduction").ok().and_then(ir::string_value);
            let loss = match reduction.as_deref() {
                Some("none") => input(1),
                Some("mean") | Some("sum") | None => Some(vec![]),
                Some(_) => None,
            };
            let mut out = vec![loss];
            if op.result_count() > 1 {
                out.push(input(0));
            }
            out
        }
        "Split" => {
            let n = op.result_count();
            let Some(x) = input(0) else { return vec![None; n] };
            let axis = norm(crate::ir::int_attribute(op, "axis").unwrap_or(0), x.len());
            if axis >= x.len() || n == 0 {
                return vec![None; n];
            }
            let given = given_operand(op, 1).map(|v| const_ints(v, values));
            let sizes: Vec<Dim> = match (given, &x[axis]) {
                (Some(Some(sizes)), _) if sizes.len() == n && sizes.iter().all(|&k| k >= 0) => {
                    sizes.into_iter().map(Dim::Static).collect()
                }
                (Some(_), _) => vec![Dim::Unknown; n],
                // Equal parts, the last one smaller (opset 18's num_outputs):
                // n - 1 parts of ceil(d / n), the rest last. When that rest
                // would be negative (5 into 4: 2, 2, 2, -1) the Split cannot
                // run; it may sit in a branch never taken (the expanded
                // AffineGrid's 2-D branch of a 3-D grid): no sizes claimed.
                (None, &Dim::Static(d)) if d >= 0 => {
                    let chunk = d / n as i64 + i64::from(d % n as i64 != 0);
                    let last = chunk.checked_mul(n as i64 - 1).and_then(|used| d.checked_sub(used));
                    match last {
                        Some(last) if last >= 0 => {
                            (0..n).map(|i| Dim::Static(if i + 1 == n { last } else { chunk })).collect()
                        }
                        _ => vec![Dim::Unknown; n],
                    }
                }
                (None, _) => vec![Dim::Unknown; n],
            };
            sizes
                .into_iter()
                .map(|size| {
                    let mut out = x.clone();
                    out[axis] = size;
                    Some(out)
                })
                .collect()
        }
        "Transpose" => one(input(0).map(|s| {
            let perm = op
                .attribute("perm")
                .ok()
                .and_then(dense_i64_values)
                .unwrap_or_else(|| (0..s.len() as i64).rev().collect());
            perm.iter().map(|&p| s.get(p as usize).cloned().unwrap_or(Dim::Unknown)).collect()
        })),
        // numpy's matmul: a 1-D operand is a row (a) or a column (b) whose
        // dim is dropped from the result.
        "MatMul" | "MatMulInteger" | "QLinearMatMul" => {
            one(matmul_operands(op_type).and_then(|(i, j)| input(i).zip(input(j))).and_then(|(a, b)| {
                if a.is_empty() || b.is_empty() {
                    return None;
                }
                if a.len() == 1 || b.len() == 1 {
                    let (a1, b1) = (a.len() == 1, b.len() == 1);
                    let a2 = if a1 { vec![Dim::Static(1), a[0].clone()] } else { a.clone() };
                    let b2 = if b1 { vec![b[0].clone(), Dim::Static(1)] } else { b.clone() };
                    let mut out = broadcast(&[a2[..a2.len() - 2].to_vec(), b2[..b2.len() - 2].to_vec()]);
                    if !a1 {
                        out.push(a2[a2.len() - 2].clone());
                    }
                    if !b1 {
                        out.push(b2[b2.len() - 1].clone());
                    }
                    return Some(out);
                }
                let batch = broadcast(&[a[..a.len() - 2].to_vec(), b[..b.len() - 2].to_vec()]);
                let mut out = batch;
                out.push(a[a.len() - 2].clone());
                out.push(b[b.len() - 1].clone());
                Some(out)
            }))
        }
        "Gemm" => one(input(0).zip(input(1)).and_then(|(a, b)| {
            let ta = crate::ir::int_attribute(op, "transA").unwrap_or(0) != 0;
            let tb = crate::ir::int_attribute(op, "transB").unwrap_or(0) != 0;
            Some(vec![a.get(if ta { 1 } else { 0 })?.clone(), b.get(if tb { 0 } else { 1 })?.clone()])
        })),
        "Shape" => one(input(0).map(|s| {
            let r = s.len();
            let start = norm(crate::ir::int_attribute(op, "start").unwrap_or(0), r).min(r);
            let end = norm(crate::ir::int_attribute(op, "end").unwrap_or(r as i64), r).min(r);
            vec![Dim::Static(end.saturating_sub(start) as i64)]
        })),
        // The shape of its value (function bodies inlined by the importer
        // leave their constants unranked).
        "Constant" => one(if let Ok(v) = op.attribute("value") {
            shape_of(unsafe { Type::from_raw(sys::mlirAttributeGetType(v.to_raw())) })
        } else if op.attribute("value_float").is_ok() || op.attribute("value_int").is_ok() {
            Some(vec![])
        } else {
            None
        }),
        "Reshape" => one(ir::operand_at(op, 1).and_then(|s| values.get(&key(s))).map(|target| {
            let data = input(0);
            // allowzero = 1: a 0 is a real 0, not "copy the input's dim".
            let allowzero = crate::ir::int_attribute(op, "allowzero") == Some(1);
            let mut out: Shape = target
                .iter()
                .enumerate()
                .map(|(i, d)| match d {
                    Dim::Static(0) if !allowzero => {
                        data.as_ref().and_then(|s| s.get(i).cloned()).unwrap_or(Dim::Unknown)
                    }
                    Dim::Static(-1) => Dim::Unknown,
                    other => other.clone(),
                })
                .collect();
            // -1: what is left of the input once the other dims are taken.
            if let (Some(pos), Some(data)) = (target.iter().position(|d| *d == Dim::Static(-1)), data) {
                let others: Vec<Dim> =
                    out.iter().enumerate().filter(|(i, _)| *i != pos).map(|(_, d)| d.clone()).collect();
                if let Some(d) = remaining_dim(&data, &others) {
                    out[pos] = d;
                }
            }
            out
        })),
        "Expand" => one(input(0)
            .zip(ir::operand_at(op, 1).and_then(|s| values.get(&key(s)).cloned()))
            .map(|(x, target)| broadcast(&[x, target]))),
        "Concat" => one((0..op.operand_count()).map(input).collect::<Option<Vec<_>>>().and_then(|shapes| {
            let first = shapes.first()?.clone();
            let axis = norm(crate::ir::int_attribute(op, "axis")?, first.len());
            if axis >= first.len() {
                return None;
            }
            let mut out = first;
            let mut total = Dim::Static(0);
            for s in &shapes {
                total = add_dims(&total, s.get(axis)?);
            }
            out[axis] = total;
            Some(out)
        })),
        "Gather" => one(input(0).zip(input(1)).and_then(|(data, idx)| {
            let axis = norm(crate::ir::int_attribute(op, "axis").unwrap_or(0), data.len());
            // An axis out of range (e.g. a 0-d `data`) is invalid ONNX: infer nothing.
            if axis >= data.len() {
                return None;
            }
            let mut out = data[..axis].to_vec();
            out.extend(idx);
            out.extend(data[axis + 1..].iter().cloned());
            Some(out)
        })),
        // indices[..., :-1] ++ data[batch_dims + k:] for k = the indices'
        // last dim (static); the batch dims are the data's leading ones.
        "GatherND" => one(input(0).zip(input(1)).and_then(|(data, idx)| {
            let batch = usize::try_from(crate::ir::int_attribute(op, "batch_dims").unwrap_or(0)).ok()?;
            let Some(Dim::Static(k)) = idx.last() else { return None };
            let k = usize::try_from(*k).ok()?;
            if idx.len() < batch + 1 || k < 1 || batch + k > data.len() {
                return None;
            }
            let mut out = idx[..idx.len() - 1].to_vec();
            out.extend(data[batch + k..].iter().cloned());
            Some(out)
        })),
        // The result has the indices' shape; indices of another rank than
        // the data are invalid (e.g. in a branch not taken): infer nothing.
        "GatherElements" => one(input(0).zip(input(1)).and_then(|(d, i)| (d.len() == i.len()).then_some(i))),
        "Unsqueeze" => {
            one(input(0).zip(ir::operand_at(op, 1).and_then(|a| const_ints(a, values))).map(|(mut s, axes)| {
                let rank = s.len() + axes.len();
                let mut axes: Vec<usize> = axes.iter().map(|&a| norm(a, rank)).collect();
                axes.sort();
                for a in axes {
                    s.insert(a.min(s.len()), Dim::Static(1));
                }
                s
            }))
        }
        // Without axes every dim of size 1 goes: known when every dim is
        // static (a symbolic dim may be 1 at run time).
        "Squeeze" if given_operand(op, 1).is_none() && op.attribute("axes").is_err() => one(
            input(0)
                .filter(|s| s.iter().all(|d| matches!(d, Dim::Static(_))))
                .map(|s| s.into_iter().filter(|d| *d != Dim::Static(1)).collect()),
        ),
        "Squeeze" => one(input(0).zip(ir::operand_at(op, 1).and_then(|a| const_ints(a, values))).map(|(s, axes)| {
            let axes: Vec<usize> = axes.iter().map(|&a| norm(a, s.len())).collect();
            s.into_iter().enumerate().filter(|(i, _)| !axes.contains(i)).map(|(_, d)| d).collect()
        })),
        "Slice" => one(input(0).map(|s| {
            let axes = ir::operand_at(op, 3).and_then(|a| const_ints(a, values));
            let starts = ir::operand_at(op, 1).and_then(|a| const_ints(a, values));
            let ends = ir::operand_at(op, 2).and_then(|a| const_ints(a, values));
            let steps = ir::operand_at(op, 4).and_then(|a| const_ints(a, values));
            let mut out = s.clone();
            // No axes: the first len(starts) axes (every axis when unknown).
            let axes = axes.unwrap_or_else(|| (0..starts.as_ref().map_or(s.len(), Vec::len) as i64).collect());
            // Lists of other lengths are refused by check_operands when their
            // lengths are static; here they just leave the dims unknown.
            let fits = |v: &Option<Vec<i64>>| v.as_ref().is_none_or(|v| v.len() == axes.len());
            if !fits(&starts) || !fits(&ends) || !fits(&steps) {
                return vec![Dim::Unknown; s.len()];
            }
            for (i, &axis) in axes.iter().enumerate() {
                let a = norm(axis, s.len());
                if a >= s.len() {
                    return vec![Dim::Unknown; s.len()];
                }
                // Steps given but not constant: no step is known (not 1).
                let step = match (&steps, given_operand(op, 4)) {
                    (Some(v), _) => v.get(i).copied().unwrap_or(1),
                    (None, Some(_)) => 0,
                    (None, None) => 1,
                };
                out[a] = match (&s[a], &starts, &ends) {
                    (Dim::Static(n), Some(st), Some(en)) if step == 1 => {
                        let n = *n;
                        let b = st[i];
                        let e = en[i];
                        let b = if b < 0 { (b + n).max(0) } else { b.min(n) };
                        let e = if e < 0 { (e + n).max(0) } else { e.min(n) };
                        Dim::Static((e - b).max(0))
                    }
                    (d, Some(st), Some(en)) if step == 1 && st[i] == 0 && en[i] >= i64::MAX / 2 => d.clone(),
                    // Symbolic bounds (sizes read from a Shape, such as
                    // Hugging Face's x[..., :S] and x[..., 1:S + 1]): the
                    // length when it is the same for every value of the
                    // symbols (aten2onnx_ir::shape::slice_length).
                    (d, _, _) if step == 1 => {
                        let at = |k: usize| {
                            ir::operand_at(op, k)
                                .and_then(|v| values.get(&key(v)))
                                .and_then(|t| (t.len() == axes.len()).then(|| t[i].clone()))
                        };
                        match (at(1), at(2)) {
                            (Some(b), Some(e)) => aten2onnx_ir::shape::slice_length(d, &b, &e).unwrap_or(Dim::Unknown),
                            _ => Dim::Unknown,
                        }
                    }
                    _ => Dim::Unknown,
                };
            }
            out
        })),
        "Dropout" => vec![input(0); op.result_count()],
        // Blocks of b x b pixels to channels and back.
        "SpaceToDepth" | "DepthToSpace" => one(input(0).and_then(|x| {
            let b = crate::ir::int_attribute(op, "blocksize").filter(|&b| b > 0)?;
            let bb = b.checked_mul(b)?;
            if x.len() != 4 {
                return None;
            }
            let scale = |d: &Dim, up: bool| match d {
                Dim::Static(n) if up => n.checked_mul(b).map(Dim::Static).unwrap_or(Dim::Unknown),
                Dim::Static(n) if n % b == 0 => Dim::Static(n / b),
                _ => Dim::Unknown,
            };
            let to_depth = op_type == "SpaceToDepth";
            let c = match &x[1] {
                Dim::Static(c) if to_depth => c.checked_mul(bb).map(Dim::Static).unwrap_or(Dim::Unknown),
                Dim::Static(c) if c % bb == 0 => Dim::Static(c / bb),
                _ => Dim::Unknown,
            };
            Some(vec![x[0].clone(), c, scale(&x[2], !to_depth), scale(&x[3], !to_depth)])
        })),
        "RNN" | "GRU" | "LSTM" => recurrent_shapes(op, op_type, input(0), input(1)),
        // Sizes given as a constant, for every axis (no `axes`), stretched.
        "Resize" => one(input(0).and_then(|x| {
            let sizes = ir::operand_at(op, 3).and_then(|v| const_ints(v, values))?;
            let policy = op.attribute("keep_aspect_ratio_policy").ok().and_then(ir::string_value);
            (sizes.len() == x.len()
                && op.attribute("axes").is_err()
                && policy.is_none_or(|p| p == "stretch")
                && sizes.iter().all(|&d| d >= 0))
            .then(|| sizes.into_iter().map(Dim::Static).collect())
        })),
        // [N, C] of the input, then the grid's output positions.
        "GridSample" => one(input(0).zip(input(1)).and_then(|(x, g)| {
            (x.len() == g.len() && g.len() >= 3).then(|| x[..2].iter().chain(&g[1..g.len() - 1]).cloned().collect())
        })),
        "LayerNormalization" => {
            let x = input(0);
            let axis = crate::ir::int_attribute(op, "axis").unwrap_or(-1);
            let stats = x.as_ref().map(|s| {
                let a = norm(axis, s.len());
                s.iter().enumerate().map(|(i, d)| if i < a { d.clone() } else { Dim::Static(1) }).collect()
            });
            vec![x, stats.clone(), stats]
        }
        "ReduceSum" | "ReduceMean" | "ReduceMax" | "ReduceMin" | "ReduceProd" | "ReduceL1" | "ReduceL2"
        | "ReduceLogSum" | "ReduceLogSumExp" | "ReduceSumSquare" | "ArgMax" | "ArgMin" => one(input(0).and_then(|s| {
            let keep = crate::ir::int_attribute(op, "keepdims").unwrap_or(1) != 0;
            let all = || (0..s.len() as i64).collect::<Vec<_>>();
            let axes = if op_type.starts_with("Arg") {
                vec![crate::ir::int_attribute(op, "axis").unwrap_or(0)]
            } else {
                match given_operand(op, 1) {
                    Some(a) => const_ints(a, values)?,
                    None => op.attribute("axes").ok().and_then(dense_i64_values).unwrap_or_default(),
                }
            };
            // No axes: every axis, or none with noop_with_empty_axes.
            let axes = match axes.is_empty() {
                true if crate::ir::int_attribute(op, "noop_with_empty_axes").unwrap_or(0) != 0 => return Some(s),
                true => all(),
                false => axes,
            };
            let r = s.len().max(1) as i64;
            if axes.iter().any(|&a| a < -r || a >= r) {
                return None;
            }
            let axes: Vec<usize> = axes.iter().map(|&a| norm(a, s.len())).collect();
            Some(
                s.into_iter()
                    .enumerate()
                    .filter_map(|(i, d)| match (axes.contains(&i), keep) {
                        (true, true) => Some(Dim::Static(1)),
                        (true, false) => None,
                        (false, _) => Some(d),
                    })
                    .collect(),
            )
        })),
        // Y: the query's shape with the value's head size (4-D), or the
        // query's [B, S] with q_num_heads value heads (3-D). present_key /
        // present_value: [B, kv heads, past + new sequence, head size];
        // qk_matmul_output: [B, q heads, query sequence, past + new sequence].
        "Attention" => {
            let n = op.result_count();
            let mut out = vec![None; n];
            let (Some(q), Some(k), Some(v)) = (input(0), input(1), input(2)) else { return out };
            let heads = (crate::ir::int_attribute(op, "q_num_heads"), crate::ir::int_attribute(op, "kv_num_heads"));
            // Per-head size of a 3-D [B, S, heads * size] operand.
            let per_head = |d: &Dim, h: Option<i64>| match (d, h) {
                (Dim::Static(w), Some(h)) if h > 0 && w % h == 0 => Dim::Static(w / h),
                _ => Dim::Unknown,
            };
            let layout = match (q.len(), k.len(), v.len()) {
                (4, 4, 4) => Some((q[1].clone(), q[2].clone(), k[1].clone(), k[2].clone(), k[3].clone(), v[3].clone())),
                (3, 3, 3) => Some((
                    heads.0.map_or(Dim::Unknown, Dim::Static),
                    q[1].clone(),
                    heads.1.map_or(Dim::Unknown, Dim::Static),
                    k[1].clone(),
                    per_head(&k[2], heads.1),
                    per_head(&v[2], heads.1),
                )),
                _ => None,
            };
            if let Some(first) = out.first_mut() {
                *first = match (q.len(), v.len()) {
                    (4, 4) => Some(vec![q[0].clone(), q[1].clone(), q[2].clone(), v[3].clone()]),
                    (3, 3) => {
                        let width = match (per_head(&v[2], heads.1), heads.0) {
                            (Dim::Static(e), Some(hq)) => Dim::Static(e.saturating_mul(hq)),
                            _ => Dim::Unknown,
                        };
                        Some(vec![q[0].clone(), q[1].clone(), width])
                    }
                    _ => None,
                };
            }
            let Some((hq, l, hkv, s, e, ev)) = layout else { return out };
            // The past sequence (operand 4, past_key): none when absent.
            let past = ir::operand_at(op, 4)
                .filter(|p| ir::defining_op(*p).is_none_or(|d| ir::op_name(d) != onnx_ir::NONE_OP));
            let total = match past {
                None => s,
                Some(p) => match shape_of(p.r#type()) {
                    Some(pd) if pd.len() == 4 => add_dims(&pd[2], &s),
                    _ => Dim::Unknown,
                },
            };
            let b = q[0].clone();
            if n > 1 {
                out[1] = Some(vec![b.clone(), hkv.clone(), total.clone(), e]);
            }
            if n > 2 {
                out[2] = Some(vec![b.clone(), hkv, total.clone(), ev]);
            }
            if n > 3 {
                out[3] = Some(vec![b, hq, l, total]);
            }
            out
        }
        // Y: [B, query sequence, ...] of a 3-D or 4-D query.
        "LinearAttention" => {
            let mut out = vec![None; op.result_count()];
            if let (Some(first), Some(q)) = (out.first_mut(), input(0)) {
                if q.len() >= 3 {
                    let mut y = vec![Dim::Unknown; q.len()];
                    y[0] = q[0].clone();
                    y[q.len() - 2] = q[q.len() - 2].clone();
                    *first = Some(y);
                }
            }
            out
        }
        // Y: [N, n_targets].
        "ml.TreeEnsemble" => {
            let mut out = vec![None; op.result_count()];
            if let (Some(first), Some(x)) = (out.first_mut(), input(0)) {
                if let Some(rows) = x.first() {
                    *first = Some(vec![
                        rows.clone(),
                        crate::ir::int_attribute(op, "n_targets").map_or(Dim::Unknown, Dim::Static),
                    ]);
                }
            }
            out
        }
        "Conv" | "MaxPool" | "AveragePool" | "LpPool" | "ConvTranspose" => {
            let n = op.result_count();
            let mut out = vec![None; n];
            if let Some(first) = out.first_mut() {
                *first = window_shape(op, op_type, input(0), input(1));
            }
            out
        }
        "GlobalAveragePool" | "GlobalMaxPool" => one(input(0)
            .map(|s| s.iter().enumerate().map(|(i, d)| if i < 2 { d.clone() } else { Dim::Static(1) }).collect())),
        // ceil((limit - start) / delta) elements of tracked integer scalars;
        // `Range(0, n, 1)` of a size `n` has n elements.
        "Range" => {
            let scalar = |i: usize| match ir::operand_at(op, i).and_then(|v| values.get(&key(v)))?.as_slice() {
                [d] => Some(d.clone()),
                _ => None,
            };
            let len = match (scalar(0), scalar(1), scalar(2)) {
                (Some(Dim::Static(start)), Some(Dim::Static(limit)), Some(Dim::Static(delta))) if delta != 0 => limit
                    .checked_sub(start)
                    .and_then(|span| {
                        let q = span / delta;
                        // Ceiling of the quotient (rounding toward zero is off by one when the signs agree).
                        q.checked_add(i64::from(span % delta != 0 && (span > 0) == (delta > 0)))
                    })
                    .map_or(Dim::Unknown, |n| Dim::Static(n.max(0))),
                (Some(Dim::Static(0)), Some(d @ Dim::Sym(_)), Some(Dim::Static(1))) => d,
                _ => Dim::Unknown,
            };
            one(Some(vec![len]))
        }
        // The shape tensor's contents; only its length when they are unknown.
        "ConstantOfShape" => one(ir::operand_at(op, 0).and_then(|s| {
            values.get(&key(s)).cloned().or_else(|| match shape_of(s.r#type())?[..] {
                [Dim::Static(n)] if (0..=MAX_TRACKED as i64).contains(&n) => Some(vec![Dim::Unknown; n as usize]),
                _ => None,
            })
        })),
        // [size of the dims before axis, size of the dims from it].
        "Flatten" => one(input(0).and_then(|s| {
            let axis = crate::ir::int_attribute(op, "axis").unwrap_or(1);
            let r = s.len() as i64;
            if axis < -r || axis > r {
                return None;
            }
            let a = norm(axis, s.len());
            Some(vec![size_of(&s[..a]), size_of(&s[a..])])
        })),
        "Tile" => {
            one(input(0).zip(ir::operand_at(op, 1).and_then(|r| values.get(&key(r)).cloned())).and_then(|(s, reps)| {
                (s.len() == reps.len()).then(|| {
                    s.iter()
                        .zip(&reps)
                        .map(|(d, r)| match (d, r) {
                            (Dim::Static(a), Dim::Static(b)) if *b >= 0 => {
                                a.checked_mul(*b).map_or(Dim::Unknown, Dim::Static)
                            }
                            (d, Dim::Static(1)) => d.clone(),
                            _ => Dim::Unknown,
                        })
                        .collect()
                })
            }))
        }
        // Constant pads over every axis (no `axes` input).
        "Pad" => one(input(0).map(|s| {
            let pads = given_operand(op, 1).and_then(|p| values.get(&key(p)).cloned());
            let r = s.len();
            match pads {
                Some(p) if p.len() == 2 * r && given_operand(op, 3).is_none() => (0..r)
                    .map(|i| match (&s[i], &p[i], &p[i + r]) {
                        (Dim::Static(n), Dim::Static(a), Dim::Static(b)) => n
                            .checked_add(*a)
                            .and_then(|m| m.checked_add(*b))
                            .filter(|m| *m >= 0)
                            .map_or(Dim::Unknown, Dim::Static),
                        (d, Dim::Static(0), Dim::Static(0)) => d.clone(),
                        _ => Dim::Unknown,
                    })
                    .collect(),
                _ => vec![Dim::Unknown; r],
            }
        })),
        "Size" => one(Some(vec![])),
        "NonZero" => one(input(0).map(|s| vec![Dim::Static(s.len() as i64), Dim::Unknown])),
        // Y: X's shape plus the most substrings of any element (data
        // dependent); Z: X's shape (each element's count).
        "StringSplit" => {
            let mut out = vec![None; op.result_count()];
            if let Some(x) = input(0) {
                let mut y = x.clone();
                y.push(Dim::Unknown);
                if let Some(first) = out.first_mut() {
                    *first = Some(y);
                }
                if let Some(second) = out.get_mut(1) {
                    *second = Some(x);
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The result shape of a convolution or pooling window op: batch, channels
/// (from the weight for Conv/ConvTranspose) and each spatial dim by ONNX's
/// formula with explicit pads, or ConvTranspose's `output_shape`. Only
/// static spatial dims are computed; a dim stays unknown under `auto_pad`,
/// a pooling `ceil_mode` (runtimes differ on a last window starting in the
/// padding), or an attribute that does not fit the rank.
fn window_shape(op: OperationRef<'_, '_>, op_type: &str, x: Option<Shape>, w: Option<Shape>) -> Option<Shape> {
    let x = x?;
    if x.len() < 3 {
        return None;
    }
    let spatial = x.len() - 2;
    let ints = |name: &str| op.attribute(name).ok().and_then(dense_i64_values);
    let per_dim = |name: &str, default: i64| -> Option<Vec<i64>> {
        match ints(name) {
            Some(v) if v.len() == spatial => Some(v),
            Some(_) => None,
            None => Some(vec![default; spatial]),
        }
    };
    let is_conv = matches!(op_type, "Conv" | "ConvTranspose");
    let channels = match (op_type, &w) {
        ("Conv", Some(w)) => w.first().cloned().unwrap_or(Dim::Unknown),
        ("ConvTranspose", Some(w)) => match (w.get(1), crate::ir::int_attribute(op, "group").unwrap_or(1)) {
            (Some(Dim::Static(c)), g) => Dim::Static(c.saturating_mul(g)),
            _ => Dim::Unknown,
        },
        (_, None) if is_conv => Dim::Unknown,
        _ => x[1].clone(),
    };
    let mut out = vec![x[0].clone(), channels];
    let auto_pad = op.attribute("auto_pad").ok().and_then(ir::string_value).unwrap_or_default();
    // ConvTranspose's output_shape gives the spatial dims themselves (its
    // pads follow from it).
    if op_type == "ConvTranspose" {
        if let Some(wanted) = op.attribute("output_shape").ok().and_then(dense_i64_values) {
            if wanted.len() == spatial && wanted.iter().all(|&d| d >= 0) {
                out.extend(wanted.into_iter().map(Dim::Static));
                return Some(out);
            }
            out.extend((0..spatial).map(|_| Dim::Unknown));
            return Some(out);
        }
    }
    let undetermined = !(auto_pad.is_empty() || auto_pad == "NOTSET")
        || (!is_conv && crate::ir::int_attribute(op, "ceil_mode").unwrap_or(0) != 0);
    let kernel = window_kernel(op, x.len(), w.as_ref());
    let strides = per_dim("strides", 1);
    let dilations = per_dim("dilations", 1);
    let output_padding = per_dim("output_padding", 0);
    let pads = match ints("pads") {
        Some(p) if p.len() == 2 * spatial => Some(p),
        Some(_) => None,
        None => Some(vec![0; 2 * spatial]),
    };
    for i in 0..spatial {
        let dim = (|| {
            if undetermined {
                return None;
            }
            let Dim::Static(size) = x[i + 2] else { return None };
            let (k, s, d) = (*kernel.as_ref()?.get(i)?, strides.as_ref()?[i], dilations.as_ref()?[i]);
            let pads = pads.as_ref()?;
            if k <= 0 || s <= 0 || d <= 0 {
                return None;
            }
            let span = d.checked_mul(k - 1)?.checked_add(1)?;
            let padded = size.checked_add(pads[i])?.checked_add(pads[i + spatial])?;
            if op_type == "ConvTranspose" {
                let grown = s.checked_mul(size - 1)?.checked_add(output_padding.as_ref()?[i])?.checked_add(span)?;
                return grown.checked_sub(pads[i])?.checked_sub(pads[i + spatial]);
            }
            // A window larger than the padded input computes a dim <= 0,
            // which contradicts any recorded size: reported, not written.
            Some(padded.checked_sub(span)?.div_euclid(s) + 1)
        })();
        out.push(dim.map_or(Dim::Unknown, Dim::Static));
    }
    Some(out)
}

/// The gates of a recurrent op: rows of W per direction are gates x hidden.
fn gates(op_type: &str) -> i64 {
    match op_type {
        "LSTM" => 4,
        "GRU" => 3,
        _ => 1,
    }
}

/// Y, Y_h (and LSTM's Y_c) of RNN/GRU/LSTM: [seq, dirs, batch, hidden] and
/// [dirs, batch, hidden], batch first under `layout = 1`.
fn recurrent_shapes(op: OperationRef<'_, '_>, op_type: &str, x: Option<Shape>, w: Option<Shape>) -> Vec<Option<Shape>> {
    let n = op.result_count();
    let (Some(x), Some(w)) = (x, w) else { return vec![None; n] };
    if x.len() != 3 || w.len() != 3 {
        return vec![None; n];
    }
    let dirs = match op.attribute("direction").ok().and_then(ir::string_value).as_deref() {
        Some("bidirectional") => 2,
        _ => 1,
    };
    let hidden = match (crate::ir::int_attribute(op, "hidden_size"), &w[1]) {
        (Some(h), _) => Dim::Static(h),
        (None, Dim::Static(rows)) => Dim::Static(rows / gates(op_type)),
        _ => Dim::Unknown,
    };
    let batch_first = crate::ir::int_attribute(op, "layout").unwrap_or(0) == 1;
    let (seq, batch) = if batch_first { (&x[1], &x[0]) } else { (&x[0], &x[1]) };
    let dirs = Dim::Static(dirs);
    let y = if batch_first {
        vec![batch.clone(), seq.clone(), dirs.clone(), hidden.clone()]
    } else {
        vec![seq.clone(), dirs.clone(), batch.clone(), hidden.clone()]
    };
    let state = if batch_first { vec![batch.clone(), dirs, hidden] } else { vec![dirs, batch.clone(), hidden] };
    let mut out = vec![Some(y)];
    out.extend(std::iter::repeat_n(Some(state), n.saturating_sub(1)));
    out.truncate(n);
    out
}

/// True when `value` is an operand of a `func.return`.
fn returned(value: Value<'_, '_>) -> bool {
    ir::uses(value).iter().any(|(owner, _)| ir::op_name(*owner) == "func.return")
}
