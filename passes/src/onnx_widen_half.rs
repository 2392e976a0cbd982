//! `onnx-widen-half`: computes float16 and bfloat16 ops in float32 and
//! rounds at the results of each aten op, the way PyTorch's CPU kernels do.
//!
//! Why: the ONNX spec rounds every op's result to its type, and eager
//! PyTorch rounds every aten op's result (its Half/BFloat16 kernels compute
//! in float, "opmath"). A float16 ONNX graph leaves the rest to the runtime,
//! and runtimes differ: onnxruntime's CPU provider has no float16 kernel for
//! most ops and runs each connected island of them in float32 *without* the
//! intermediate roundings (its InsertCastTransformer), so outputs drift from
//! eager float16 by a few ulps wherever values cancel (`a*b - c*d`), and has
//! no bfloat16 kernels at all. Made explicit in the graph (Cast to float32,
//! compute, Cast back at the aten op's results), the rounding points are
//! the same on every runtime, and bfloat16 models run where only Cast
//! supports bfloat16.
//!
//! Which ops belong to one aten op comes from their locations
//! (`convert-aten-to-onnx` names the aten node, or in a `.mlir` module
//! without node names, its ops inherit the aten op's file position; ops
//! with neither are each their own group). A value passed between two ops of the same aten op
//! stays float32; a value crossing to another aten op, a graph output, a
//! region or a non-compute op (Cast, Shape, random ops, ...) is rounded to
//! its half type. Pure data movement (Reshape, Transpose, Gather, ...) never
//! rounds, so it follows its producer: float32 inside a group, half type
//! otherwise. Ops of other domains (onnxruntime's contrib ops) keep their
//! half types. Runs last in the pipeline: `aten-translate --half-precision
//! native` leaves it out (a smaller graph for runtimes with native float16
//! kernels, whose roundings are then theirs).

use crate::{
    ir::{self, SourcePosition},
    lowering::builder::{self, Builder},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
use melior::ir::{
    block::BlockLike as _, operation::OperationLike, r#type::TypeLike as _, BlockRef, OperationRef, RegionLike as _,
    Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::HashMap;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-widen-half",
    summary: "Compute float16/bfloat16 ops in float32, rounding at each aten op's results (PyTorch's CPU semantics)",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: WidenHalf, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct WidenHalf;

impl ProjectPass for WidenHalf {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if ir::op_name(op) != "func.func" {
            return Ok(());
        }
        let opset = onnx_ir::opset_of(op);
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let mut state = State {
            opset,
            context,
            widened: HashMap::new(),
            up: HashMap::new(),
            down: HashMap::new(),
            twins: Vec::new(),
        };
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                if let Err(message) = state.block(b) {
                    crate::diag::op_error(op, &format!("onnx-widen-half: {message}"));
                    return Err(());
                }
                block = b.next_in_region();
            }
        }
        for t in state.twins {
            if ir::result_at(t, 0).is_some_and(|r| !ir::has_uses(r.into())) {
                // SAFETY: an unused op of this function, not referenced again.
                unsafe { ir::erase(t) };
            }
        }
        Ok(())
    }
}

/// Ops that produce or convert types by attribute, read only shapes, draw
/// random numbers, or carry regions: never widened (a widened operand is
/// rounded to its half type first).
fn is_type_producing(op_type: &str) -> bool {
    matches!(
        op_type,
        "Cast"
            | "CastLike"
            | "Constant"
            | "ConstantOfShape"
            | "Shape"
            | "Size"
            | "EyeLike"
            | "RandomNormal"
            | "RandomUniform"
            | "RandomNormalLike"
            | "RandomUniformLike"
            | "Bernoulli"
            | "Multinomial"
            | "If"
            | "Loop"
            | "Scan"
            | "initializer"
            | "weight_transform"
            | "none"
            | "yield"
    )
}

/// Ops that only move or select elements (no rounding in any precision).
fn is_data_movement(op_type: &str) -> bool {
    matches!(
        op_type,
        "Reshape"
            | "Transpose"
            | "Squeeze"
            | "Unsqueeze"
            | "Flatten"
            | "Slice"
            | "Split"
            | "Gather"
            | "GatherElements"
            | "GatherND"
            | "Expand"
            | "Identity"
            | "Tile"
            | "Concat"
            | "DepthToSpace"
            | "SpaceToDepth"
            | "Compress"
            | "ReverseSequence"
    )
}

/// Data movement onnxruntime's CPU provider has no bfloat16 kernel for
/// (checked on onnxruntime 1.32; float16 has them all): moved in float32,
/// which is exact (the rounding back to bfloat16 restores the same values).
const BF16_DATA_MOVEMENT_GAPS: &[&str] = &["Expand", "Tile", "DepthToSpace", "SpaceToDepth"];

/// bfloat16 element type.
fn is_bf16(ty: Type<'_>) -> bool {
    builder::element_type(ty).is_some_and(|e| unsafe { sys::mlirTypeIsABF16(e.to_raw()) })
}

/// float16 or bfloat16 element type.
fn is_half(ty: Type<'_>) -> bool {
    builder::element_type(ty)
        .is_some_and(|e| unsafe { sys::mlirTypeIsAF16(e.to_raw()) || sys::mlirTypeIsABF16(e.to_raw()) })
}

type Key = usize;
fn key(v: Value<'_, '_>) -> Key {
    v.to_raw().ptr as usize
}

/// The aten node an op was lowered from (None: its own group): the node
/// name of its location, or for modules without node names (hand-written
/// or generated `.mlir`) the file position of the aten op, which every op
/// lowered from it inherits.
fn group_of(op: OperationRef<'_, '_>) -> Option<String> {
    let pos = SourcePosition::of(op.location());
    let file = pos.file.is_some().then(|| pos.file_line());
    pos.node.or(file)
}

struct Widened<'c, 'a> {
    /// The result, retyped to float32.
    value: Value<'c, 'a>,
    /// Its half element type.
    half: Type<'c>,
    group: Option<String>,
    /// The op that computed it (casts go right after it).
    owner: OperationRef<'c, 'a>,
}

struct State<'c, 'a> {
    opset: u32,
    context: &'c melior::Context,
    widened: HashMap<Key, Widened<'c, 'a>>,
    /// Cast to float32 of a half value (one per value).
    up: HashMap<Key, Value<'c, 'a>>,
    /// Cast of a widened value back to its half type (one per value).
    down: HashMap<Key, Value<'c, 'a>>,
    /// Half Transposes given a float32 twin (erased when left unused).
    twins: Vec<OperationRef<'c, 'a>>,
}

impl<'c, 'a> State<'c, 'a> {
    fn block(&mut self, block: BlockRef<'c, 'a>) -> Result<(), String> {
        let mut ops = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            ops.push(op);
            next = op.next_in_block();
        }
        for op in ops {
            self.op(op)?;
            for region in op.regions() {
                let mut inner = region.first_block();
                while let Some(b) = inner {
                    self.block(b)?;
                    inner = b.next_in_region();
                }
            }
        }
        Ok(())
    }

    fn op(&mut self, op: OperationRef<'c, 'a>) -> Result<(), String> {
        let name = ir::op_name(op);
        let op_type = match onnx_ir::split_name(&name) {
            Some(("", op_type)) => op_type.to_string(),
            _ => String::new(), // func.return, other dialects and domains
        };
        let mut group = group_of(op);
        // A Transpose of a widened value joins its producer's group: it moves
        // the float32 value and the rounding happens at its result (exact:
        // rounding commutes with moving elements). Written the other way,
        // `Cast(to half) -> Transpose -> Cast(to float) -> MatMul` crashes
        // onnxruntime 1.32's MatmulTransposeFusion (a segfault at session
        // creation with default optimizations; torchvision's ViT in float16).
        if op_type == "Transpose" && op.operand_count() == 1 {
            if let Some(w) = ir::operand_at(op, 0).and_then(|v| self.widened.get(&key(v))) {
                if w.group.is_some() {
                    group = w.group.clone();
                }
            }
        }
        let same_group = |w: &Widened| w.group.is_some() && w.group == group;
        let half_operands: Vec<usize> = (0..op.operand_count())
            .filter(|&i| {
                ir::operand_at(op, i).is_some_and(|v| is_half(v.r#type()) || self.widened.contains_key(&key(v)))
            })
            .collect();
        let half_results = op.results().any(|r| is_half(r.r#type()));
        let bf16_gap = BF16_DATA_MOVEMENT_GAPS.contains(&op_type.as_str())
            && (op.results().any(|r| is_bf16(r.r#type()))
                || half_operands.iter().any(|&i| ir::operand_at(op, i).is_some_and(|v| is_bf16(v.r#type()))));
        let compute = !op_type.is_empty()
            && op.region_count() == 0
            && !is_type_producing(&op_type)
            && (!half_operands.is_empty() || half_results)
            && (!is_data_movement(&op_type)
                || bf16_gap
                || half_operands.iter().all(|&i| {
                    ir::operand_at(op, i).and_then(|v| self.widened.get(&key(v))).is_some_and(|w| same_group(w))
                }));
        // A Cast of the same aten op reads the unrounded value.
        let reads_float = compute || (op_type == "Cast" && half_operands.len() == 1);
        for i in half_operands {
            let operand = ir::operand_at(op, i).ok_or("operand out of range")?;
            let replacement = match self.widened.get(&key(operand)) {
                Some(w) if reads_float && same_group(w) => continue, // stays float32
                Some(_) if compute => {
                    let down = self.round(operand)?;
                    self.widen_operand(down)?
                }
                Some(_) => self.round(operand)?,
                None if compute => self.widen_operand(operand)?,
                None => continue,
            };
            unsafe { sys::mlirOperationSetOperand(op.to_raw(), i as isize, replacement.to_raw()) };
        }
        if compute {
            for r in 0..op.result_count() {
                let result = ir::result_at(op, r).ok_or("result out of range")?;
                let ty = result.r#type();
                if !is_half(ty) {
                    continue;
                }
                let half = builder::element_type(ty).ok_or("result is not a tensor")?;
                let f32 = Type::float32(self.context);
                let wide = builder::with_element_type(ty, f32).ok_or("result is not a tensor")?;
                unsafe { sys::mlirValueSetType(result.to_raw(), wide.to_raw()) };
                self.widened.insert(key(result), Widened { value: result, half, group: group.clone(), owner: op });
            }
        }
        Ok(())
    }

    /// The half-typed rounding of a widened value (a Cast right after its op).
    fn round(&mut self, value: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        if let Some(down) = self.down.get(&key(value)) {
            return Ok(*down);
        }
        let w = self.widened.get(&key(value)).ok_or("not a widened value")?;
        let after = w.owner.next_in_block().ok_or("an op without a successor in its block")?;
        let mut b = Builder::new(self.context, after, self.opset)?;
        b.location = w.owner.location();
        let down = b.cast(w.value, w.half)?;
        self.down.insert(key(value), down);
        Ok(down)
    }

    /// The float32 Cast of a half value, right after its definition.
    fn widen_operand(&mut self, value: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        if let Some(up) = self.up.get(&key(value)) {
            return Ok(*up);
        }
        // A half Transpose is widened by transposing its widened input
        // (exact: the cast commutes with moving elements): written as
        // `Transpose(half) -> Cast(to float) -> MatMul`, onnxruntime 1.32's
        // MatmulTransposeFusion segfaults at session creation with default
        // optimizations (nn.TransformerEncoder in float16: its input is
        // transposed to sequence-first before the in-projection).
        if let Some(t) = ir::defining_op(value)
            .filter(|d| ir::op_name(*d) == "onnx.Transpose" && d.operand_count() == 1 && d.result_count() == 1)
        {
            let input = ir::operand_at(t, 0).ok_or("Transpose without an operand")?;
            let wide_input = match self.widened.get(&key(input)) {
                Some(_) => {
                    let down = self.round(input)?;
                    self.widen_operand(down)?
                }
                None => self.widen_operand(input)?,
            };
            let wide = builder::with_element_type(value.r#type(), Type::float32(self.context))
                .ok_or("Transpose result is not a tensor")?;
            let perm = t.attribute("perm").ok().and_then(ir::dense_i64_values);
            let mut b =
                Builder::new(self.context, t.next_in_block().ok_or("a Transpose without a successor")?, self.opset)?;
            b.location = t.location();
            let up = b.onnx().transpose(wide_input, perm.as_deref()).typed(wide)?;
            self.up.insert(key(value), up);
            self.twins.push(t);
            return Ok(up);
        }
        let (after, location) = match ir::defining_op(value) {
            Some(def) => (def.next_in_block().ok_or("an op without a successor in its block")?, def.location()),
            None => {
                if !unsafe { sys::mlirValueIsABlockArgument(value.to_raw()) } {
                    return Err("a value neither an op result nor a block argument".into());
                }
                // SAFETY: a block argument's owner block outlives this pass's edits.
                let block: BlockRef<'c, 'a> =
                    unsafe { BlockRef::from_raw(sys::mlirBlockArgumentGetOwner(value.to_raw())) };
                let first = block.first_operation().ok_or("an empty block")?;
                (first, first.location())
            }
        };
        let mut b = Builder::new(self.context, after, self.opset)?;
        b.location = location;
        let up = b.cast(value, Type::float32(self.context))?;
        self.up.insert(key(value), up);
        Ok(up)
    }
}
