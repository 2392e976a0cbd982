//! `onnx-quantize-weights`: weight-only quantization of Linear layers
//! (`aten-translate --quantize-weights SPEC`), block-wise round-to-nearest,
//! with the numbers onnxruntime's own quantizer writes (src/export/rtn.rs).
//!
//! Every `MatMul(x, W)` and `Gemm(x, W, c)` (alpha = beta = 1, transA = 0)
//! whose `W` is a float32 weight (an initializer or a weight transform:
//! the transposed Linear weight, a QKV concat of `onnx-fuse-weights`) of
//! static shape `[K, N]` becomes, by the `format` option:
//!
//! - `qdq` (standard ONNX, opset 21+): `MatMul(x, DequantizeLinear(q, s[, z])
//!   {axis = 0, block_size})`, `q` int4/int8 (symmetric) or uint4/uint8
//!   `[K, N]`, `s` float32 `[K / block, N]`. onnxruntime fuses it into
//!   `MatMulNBits` when it loads the model; other runtimes read standard ops.
//! - `matmulnbits` (`--target onnxruntime`): `com.microsoft.MatMulNBits(x,
//!   B, s[, z]) {K, N, bits, block_size, accuracy_level}`.
//!
//! A Gemm's bias becomes an `Add` after the product. The quantized tensors
//! are `onnx.weight_transform`s of kind `rtn_data` / `rtn_scales` /
//! `rtn_zero_points` over the weight as `[N, K]`: the writer computes them
//! while it streams the float weight from the archive (nothing is copied
//! into the IR, peak memory one row or block of rows), and a float weight
//! used only there is not written.
//!
//! Skipped, left in float: MatMulNBits weights of odd K (4 bits: MLAS packs
//! an odd K's last byte in a way of its own), non-float32
//! weights, weights whose archive name matches `exclude` (a regex, e.g.
//! `lm_head`), and weights used by anything else than the product (a tied
//! embedding stays float; the product still quantizes its own use).
//!
//! With `embeddings=1`, every `Gather(E, ids)` (axis 0) whose `E` is a
//! float32 (or float16 / bfloat16: its float32 values, the gathered rows
//! cast back) weight of static shape `[V, H]` (an embedding table) is quantized
//! too, 4 bits only, in blocks along `H`, with the numbers of onnxruntime's
//! quantizer for Gather (its numpy path: round half to even, division by
//! the scale; src/export/rtn.rs): `format=matmulnbits` writes
//! `com.microsoft.GatherBlockQuantized(q, ids, s[, z]) {gather_axis = 0,
//! quantize_axis = 1, block_size}`, `qdq` a blocked `DequantizeLinear(q, s[,
//! z]) {axis = 1}` feeding the `Gather`. `q` is int4 (symmetric) or uint4
//! `[V, H]`, `s` float32 `[V, H / block]`. A table tied to a Linear weight
//! (the same archive tensor) is quantized for each use; the float table is
//! written only if something else still reads it.
//!
//! Options: `bits=4|8` (4), `block=N` (32; a power of two from 16),
//! `symmetric=1|0` (1), `format=qdq|matmulnbits` (qdq), `accuracy-level=N`
//! (MatMulNBits' compute type, 0..4; default 4: int8 activations, the fast
//! path onnxruntime-genai uses), `exclude=REGEX`. The function gets
//! `onnx.quantized_weights = N`.

use crate::{
    ir::{self, op_name},
    onnx_ir,
    onnx_shape_inference::{shape_of, Dim},
    Factory, PassId, PassInfo, PassOption, ProjectPass,
};
use melior::ir::{
    attribute::{AttributeLike, IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType},
    Attribute, BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
};
use mlir_sys as sys;

static ID: PassId = PassId::new();

/// The function attribute counting the weights quantized.
pub const SUMMARY_ATTR: &str = "onnx.quantized_weights";

pub const INFO: PassInfo = PassInfo {
    name: "onnx-quantize-weights",
    summary:
        "Weight-only block-wise RTN quantization of MatMul/Gemm weights (DequantizeLinear + MatMul, or MatMulNBits)",
    options: &[
        PassOption { name: "bits", help: "4 (default) or 8" },
        PassOption { name: "block", help: "block size along K, a power of two from 16 (default 32)" },
        PassOption { name: "symmetric", help: "1 (default) or 0" },
        PassOption { name: "format", help: "qdq (default: DequantizeLinear + MatMul, opset 21+) or matmulnbits" },
        PassOption { name: "accuracy-level", help: "MatMulNBits accuracy_level, 0..4 (default 4)" },
        PassOption { name: "exclude", help: "a regex: weights whose archive name matches stay float (e.g. lm_head)" },
        PassOption {
            name: "embeddings",
            help: "1: also Gather tables (4 bits; GatherBlockQuantized or DequantizeLinear)",
        },
    ],
    create: |options| {
        let number = |key: &str, default: i64| -> Result<i64, String> {
            options.get(key).map_or(Ok(default), |v| {
                v.parse::<i64>()
                    .map_err(|_| format!("onnx-quantize-weights: option '{key}' must be a number, got '{v}'"))
            })
        };
        let bits = number("bits", 4)?;
        if bits != 4 && bits != 8 {
            return Err(format!("onnx-quantize-weights: bits must be 4 or 8, got {bits}"));
        }
        let block = number("block", 32)?;
        if !valid_block(block) {
            return Err(format!("onnx-quantize-weights: block must be a power of two from 16 to 4096, got {block}"));
        }
        let symmetric = match number("symmetric", 1)? {
            0 => false,
            1 => true,
            other => return Err(format!("onnx-quantize-weights: symmetric must be 0 or 1, got {other}")),
        };
        let nbits = match options.get("format").map(String::as_str) {
            None | Some("qdq") => false,
            Some("matmulnbits") => true,
            Some(other) => {
                return Err(format!("onnx-quantize-weights: format must be qdq or matmulnbits, got '{other}'"))
            }
        };
        let accuracy_level = number("accuracy-level", 4)?;
        if !(0..=4).contains(&accuracy_level) {
            return Err(format!("onnx-quantize-weights: accuracy-level must be 0..4, got {accuracy_level}"));
        }
        let exclude = match options.get("exclude") {
            Some(r) => {
                Some(regex::Regex::new(r).map_err(|e| format!("onnx-quantize-weights: exclude is not a regex: {e}"))?)
            }
            None => None,
        };
        let embeddings = match number("embeddings", 0)? {
            0 => false,
            1 => true,
            other => return Err(format!("onnx-quantize-weights: embeddings must be 0 or 1, got {other}")),
        };
        if embeddings && bits != 4 {
            return Err("onnx-quantize-weights: embeddings are quantized to 4 bits only (onnxruntime's \
                        GatherBlockQuantized)"
                .to_string());
        }
        let pass = QuantizeWeights { bits, block, symmetric, nbits, accuracy_level, exclude, embeddings };
        Ok(Box::new(Factory { pass, id: &ID, info: &INFO }))
    },
};

/// The block sizes the quantization takes: a power of two from 16 to 4096
/// (onnxruntime fuses blocked DequantizeLinear + MatMul only for powers of
/// two from 16). The CLI spec, this pass and the writer all check it.
pub fn valid_block(block: i64) -> bool {
    (16..=4096).contains(&block) && (block as u64).is_power_of_two()
}

#[derive(Clone)]
struct QuantizeWeights {
    bits: i64,
    block: i64,
    symmetric: bool,
    nbits: bool,
    accuracy_level: i64,
    exclude: Option<regex::Regex>,
    embeddings: bool,
}

impl ProjectPass for QuantizeWeights {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if op_name(op) != "func.func" {
            return Ok(());
        }
        let opset = onnx_ir::opset_of(op);
        if !self.nbits && opset < 21 {
            crate::diag::op_error(
                op,
                &format!(
                    "onnx-quantize-weights: the standard form (blocked DequantizeLinear, int4) needs opset 21 or \
                     later, the model targets {opset} (use --opset 21+, or --target onnxruntime for MatMulNBits)"
                ),
            );
            return Err(());
        }
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return Ok(()) };
        let (mut products, mut gathers) = (Vec::new(), Vec::new());
        let mut next = body.first_operation();
        while let Some(o) = next {
            next = o.next_in_block();
            match op_name(o).as_str() {
                "onnx.MatMul" | "onnx.Gemm" => products.push(o),
                "onnx.Gather" if self.embeddings => gathers.push(o),
                _ => {}
            }
        }
        let mut done = 0i64;
        for p in products {
            if self.rewrite(body, p).is_some() {
                done += 1;
            }
        }
        for g in gathers {
            if self.rewrite_gather(body, g).is_some() {
                done += 1;
            }
        }
        if done > 0 {
            ir::set_i64_attribute(op, SUMMARY_ATTR, done);
        }
        Ok(())
    }
}

/// A float attribute of `op`.
fn float_attr(op: OperationRef<'_, '_>, name: &str) -> Option<f64> {
    let attr = op.attribute(name).ok()?;
    unsafe { sys::mlirAttributeIsAFloat(attr.to_raw()).then(|| sys::mlirFloatAttrGetValueDouble(attr.to_raw())) }
}

/// `[a, b]` of a static 2-D tensor type.
fn static_2d(ty: Type<'_>) -> Option<(i64, i64)> {
    match shape_of(ty)?[..] {
        [Dim::Static(a), Dim::Static(b)] => Some((a, b)),
        _ => None,
    }
}

/// The archive names of the stored tensors a weight value reads.
fn leaf_names(value: Value<'_, '_>, out: &mut Vec<String>) {
    let Some(def) = ir::defining_op(value) else { return };
    match op_name(def).as_str() {
        onnx_ir::INITIALIZER_OP => {
            if let Some(name) = def.attribute("name").ok().and_then(ir::string_value) {
                out.push(name);
            }
        }
        onnx_ir::WEIGHT_TRANSFORM_OP => {
            for operand in def.operands() {
                leaf_names(operand, out);
            }
        }
        _ => {}
    }
}

/// The `kind` and attributes of a weight transform op, if `value` is one.
fn transform_kind<'c, 'a>(value: Value<'c, 'a>) -> Option<(OperationRef<'c, 'a>, String)> {
    let def = ir::defining_op(value)?;
    (op_name(def) == onnx_ir::WEIGHT_TRANSFORM_OP)
        .then(|| def.attribute("kind").ok().and_then(ir::string_value).map(|k| (def, k)))
        .flatten()
}

/// True when `value` is `transpose(x)` by `[1, 0]`; then `x`.
fn untransposed<'c, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let (def, kind) = transform_kind(value)?;
    let perm = def.attribute("perm").ok().and_then(ir::dense_i64_values);
    let plain = kind == "transpose" && matches!(perm.as_deref(), None | Some([1, 0])) && def.operand_count() == 1;
    // The operand outlives this borrow of `def` (it is the IR's).
    plain.then(|| unsafe { Value::from_raw(sys::mlirOperationGetOperand(def.to_raw(), 0)) })
}

/// `[A, B, ..]` when `value` is `concat(transpose(A), transpose(B), ..)`
/// along axis 1 (a QKV weight of `onnx-fuse-weights`).
fn concat_of_transposes<'c, 'a>(value: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
    let (def, kind) = transform_kind(value)?;
    if kind != "concat" || ir::int_attribute(def, "axis") != Some(1) {
        return None;
    }
    (0..def.operand_count())
        .map(|i| untransposed(unsafe { Value::from_raw(sys::mlirOperationGetOperand(def.to_raw(), i as isize)) }))
        .collect()
}

/// `w16` when `value` is `Cast(w16) {to = float32}` of a float16 or bfloat16
/// weight (how onnx-widen-half feeds a half model's weight to a product).
fn half_weight_cast<'c, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let def = ir::defining_op(value)?;
    if op_name(def) != "onnx.Cast" || ir::int_attribute(def, "to") != Some(1) || def.operand_count() != 1 {
        return None;
    }
    let source = unsafe { Value::from_raw(sys::mlirOperationGetOperand(def.to_raw(), 0)) };
    let elem = crate::lowering::builder::element_type(source.r#type())?;
    let context_ref = def.context(); // alive while `context` is used
    let context = unsafe { context_ref.to_ref() };
    let half = elem == Type::float16(context) || elem == Type::bfloat16(context);
    (half && onnx_ir::is_weight_value(source)).then_some(source)
}

impl QuantizeWeights {
    /// Rewrites `p` (MatMul or Gemm) when its weight qualifies.
    fn rewrite<'c, 'a>(&self, block: melior::ir::BlockRef<'c, 'a>, p: OperationRef<'c, 'a>) -> Option<()> {
        let is_gemm = op_name(p) == "onnx.Gemm";
        let (x, w) = (ir::operand_at(p, 0)?, ir::operand_at(p, 1)?);
        let trans_b = if is_gemm {
            let plain = ir::int_attribute(p, "transA").unwrap_or(0) == 0
                && float_attr(p, "alpha").unwrap_or(1.0) == 1.0
                && float_attr(p, "beta").unwrap_or(1.0) == 1.0;
            if !plain {
                return None;
            }
            ir::int_attribute(p, "transB").unwrap_or(0) == 1
        } else {
            false
        };
        if !ir::single_use(w) || p.result_count() != 1 {
            return None;
        }
        let context_ref = p.context(); // alive while `context` is used (see `run`)
        let context = unsafe { context_ref.to_ref() };
        let f32_type = Type::float32(context);
        if crate::lowering::builder::element_type(w.r#type())? != f32_type {
            return None;
        }
        // A float16 / bfloat16 weight that onnx-widen-half casts to float32
        // for the product: its values are float32 values, quantized as such
        // (the float32 scales and products are the ones the float32 weight
        // would get); the Cast goes with the float product.
        let w = half_weight_cast(w).unwrap_or(w);
        if !onnx_ir::is_weight_value(w) {
            return None;
        }
        // The source's element type (its re-layouts keep it).
        let elem = crate::lowering::builder::element_type(w.r#type())?;
        let (k, n) = match static_2d(w.r#type())? {
            (a, b) if trans_b => (b, a),
            (a, b) => (a, b),
        };
        // MLAS packs the last byte of an odd K in a way of its own (the
        // high nibble holds row K - 2): left in float rather than guessed.
        if self.nbits && self.bits == 4 && k % 2 != 0 {
            return None;
        }
        if let Some(re) = &self.exclude {
            let mut names = Vec::new();
            leaf_names(w, &mut names);
            if names.iter().any(|name| re.is_match(name)) {
                return None;
            }
        }
        let location = p.location();
        let i64_type: Type = IntegerType::new(context, 64).into();
        let str_attr = |name: &str, v: &str| (Identifier::new(context, name), StringAttribute::new(context, v).into());
        let int = |name: &str, v: i64| -> (Identifier, Attribute) {
            (Identifier::new(context, name), IntegerAttribute::new(i64_type, v).into())
        };
        let ranked = |dims: &[i64], element: Type<'c>| -> Type<'c> {
            RankedTensorType::new(&dims.iter().map(|&d| d as u64).collect::<Vec<_>>(), element, None).into()
        };
        let insert = |op: melior::ir::Operation<'c>| -> Option<Value<'c, 'a>> {
            ir::result_at(block.insert_operation_before(p, op), 0)
        };
        // The weight as [N, K]: the Linear weight itself under its transpose,
        // the row-concat of a column-concat of transposes, or a transpose.
        let src = if trans_b {
            w
        } else if let Some(inner) = untransposed(w) {
            inner
        } else if let Some(parts) = concat_of_transposes(w) {
            // concat(t(A), t(B), axis 1)^T = concat(A, B, axis 0): rows stream.
            let op = OperationBuilder::new(onnx_ir::WEIGHT_TRANSFORM_OP, location)
                .add_operands(&parts)
                .add_attributes(&[str_attr("kind", "concat"), int("axis", 0)])
                .add_results(&[ranked(&[n, k], elem)])
                .build()
                .ok()?;
            insert(op)?
        } else {
            let op = OperationBuilder::new(onnx_ir::WEIGHT_TRANSFORM_OP, location)
                .add_operands(&[w])
                .add_attributes(&[str_attr("kind", "transpose")])
                .add_results(&[ranked(&[n, k], elem)])
                .build()
                .ok()?;
            insert(op)?
        };
        let layout = if self.nbits { "matmulnbits" } else { "qdq" };
        let nb = (k + self.block - 1) / self.block;
        let signed = self.symmetric;
        let q_elem: Type = match (self.bits, signed) {
            (4, true) => IntegerType::new(context, 4).into(),
            (4, false) => IntegerType::unsigned(context, 4).into(),
            (_, true) => IntegerType::new(context, 8).into(),
            (_, false) => IntegerType::unsigned(context, 8).into(),
        };
        let u8_type: Type = IntegerType::unsigned(context, 8).into();
        let (data_ty, scales_ty, zp_ty) = if self.nbits {
            (
                ranked(&[n, nb, self.block * self.bits / 8], u8_type),
                ranked(&[n, nb], f32_type),
                ranked(&[n, (nb * self.bits + 7) / 8], u8_type),
            )
        } else {
            (ranked(&[k, n], q_elem), ranked(&[nb, n], f32_type), ranked(&[nb, n], q_elem))
        };
        let part = |kind: &str, ty: Type<'c>| -> Option<Value<'c, 'a>> {
            let op = OperationBuilder::new(onnx_ir::WEIGHT_TRANSFORM_OP, location)
                .add_operands(&[src])
                .add_attributes(&[
                    str_attr("kind", kind),
                    str_attr("layout", layout),
                    int("bits", self.bits),
                    int("block_size", self.block),
                    int("symmetric", self.symmetric as i64),
                ])
                .add_results(&[ty])
                .build()
                .ok()?;
            insert(op)
        };
        let data = part("rtn_data", data_ty)?;
        let scales = part("rtn_scales", scales_ty)?;
        let zero_points = if self.symmetric { None } else { Some(part("rtn_zero_points", zp_ty)?) };
        let mut quantized = vec![data, scales];
        quantized.extend(zero_points);
        let result_ty = ir::result_at(p, 0)?.r#type();
        let product = if self.nbits {
            let mut operands = vec![x];
            operands.extend(quantized);
            let op = OperationBuilder::new(&onnx_ir::op_name("com.microsoft", "MatMulNBits"), location)
                .add_operands(&operands)
                .add_attributes(&[
                    int("K", k),
                    int("N", n),
                    int("bits", self.bits),
                    int("block_size", self.block),
                    int("accuracy_level", self.accuracy_level),
                ])
                .add_results(&[result_ty])
                .build()
                .ok()?;
            insert(op)?
        } else {
            let dq = OperationBuilder::new("onnx.DequantizeLinear", location)
                .add_operands(&quantized)
                .add_attributes(&[int("axis", 0), int("block_size", self.block)])
                .add_results(&[ranked(&[k, n], f32_type)])
                .build()
                .ok()?;
            let dq = insert(dq)?;
            let op = OperationBuilder::new("onnx.MatMul", location)
                .add_operands(&[x, dq])
                .add_results(&[result_ty])
                .build()
                .ok()?;
            insert(op)?
        };
        let result = match ir::operand_at(p, 2).filter(|c| is_gemm && !onnx_ir::is_none_value(*c)) {
            Some(c) => {
                let op = OperationBuilder::new("onnx.Add", location)
                    .add_operands(&[product, c])
                    .add_results(&[result_ty])
                    .build()
                    .ok()?;
                insert(op)?
            }
            None => product,
        };
        let old = ir::result_at(p, 0)?;
        unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), result.to_raw()) };
        unsafe { sys::mlirOperationDestroy(p.to_raw()) };
        erase_unused_weight(w);
        Some(())
    }
}

impl QuantizeWeights {
    /// Rewrites `g` (`Gather(E, ids)`, axis 0) when its table qualifies.
    fn rewrite_gather<'c, 'a>(&self, block: melior::ir::BlockRef<'c, 'a>, g: OperationRef<'c, 'a>) -> Option<()> {
        let (table, ids) = (ir::operand_at(g, 0)?, ir::operand_at(g, 1)?);
        if ir::int_attribute(g, "axis").unwrap_or(0) != 0 || !onnx_ir::is_weight_value(table) || g.result_count() != 1 {
            return None;
        }
        let context_ref = g.context(); // alive while `context` is used
        let context = unsafe { context_ref.to_ref() };
        let elem = crate::lowering::builder::element_type(table.r#type())?;
        // A float16 / bfloat16 table quantizes like the float32 table of its
        // values (as half Linear weights do); the gathered rows are
        // dequantized in float32 and rounded to the table's type, the type
        // the model reads them in.
        let half = elem == Type::float16(context) || elem == Type::bfloat16(context);
        if elem != Type::float32(context) && !half {
            return None;
        }
        let (v, h) = static_2d(table.r#type())?;
        if let Some(re) = &self.exclude {
            let mut names = Vec::new();
            leaf_names(table, &mut names);
            if names.iter().any(|name| re.is_match(name)) {
                return None;
            }
        }
        let location = g.location();
        let i64_type: Type = IntegerType::new(context, 64).into();
        let str_attr = |name: &str, v: &str| (Identifier::new(context, name), StringAttribute::new(context, v).into());
        let int = |name: &str, v: i64| -> (Identifier, Attribute) {
            (Identifier::new(context, name), IntegerAttribute::new(i64_type, v).into())
        };
        let ranked = |dims: &[i64], element: Type<'c>| -> Type<'c> {
            RankedTensorType::new(&dims.iter().map(|&d| d as u64).collect::<Vec<_>>(), element, None).into()
        };
        let insert = |op: melior::ir::Operation<'c>| -> Option<Value<'c, 'a>> {
            ir::result_at(block.insert_operation_before(g, op), 0)
        };
        let nb = (h + self.block - 1) / self.block;
        let q_elem: Type =
            if self.symmetric { IntegerType::new(context, 4).into() } else { IntegerType::unsigned(context, 4).into() };
        let part = |kind: &str, ty: Type<'c>| -> Option<Value<'c, 'a>> {
            let op = OperationBuilder::new(onnx_ir::WEIGHT_TRANSFORM_OP, location)
                .add_operands(&[table])
                .add_attributes(&[
                    str_attr("kind", kind),
                    str_attr("layout", "gather"),
                    int("bits", 4),
                    int("block_size", self.block),
                    int("symmetric", self.symmetric as i64),
                ])
                .add_results(&[ty])
                .build()
                .ok()?;
            insert(op)
        };
        let f32_type = Type::float32(context);
        let data = part("rtn_data", ranked(&[v, h], q_elem))?;
        let scales = part("rtn_scales", ranked(&[v, nb], f32_type))?;
        let zero_points = if self.symmetric { None } else { Some(part("rtn_zero_points", ranked(&[v, nb], q_elem))?) };
        let original_ty = ir::result_at(g, 0)?.r#type();
        let result_ty = crate::lowering::builder::with_element_type(original_ty, f32_type)?;
        let result = if self.nbits {
            let mut operands = vec![data, ids, scales];
            operands.extend(zero_points);
            let op = OperationBuilder::new(&onnx_ir::op_name("com.microsoft", "GatherBlockQuantized"), location)
                .add_operands(&operands)
                .add_attributes(&[int("gather_axis", 0), int("quantize_axis", 1), int("block_size", self.block)])
                .add_results(&[result_ty])
                .build()
                .ok()?;
            insert(op)?
        } else {
            let mut operands = vec![data, scales];
            operands.extend(zero_points);
            let dq = OperationBuilder::new("onnx.DequantizeLinear", location)
                .add_operands(&operands)
                .add_attributes(&[int("axis", 1), int("block_size", self.block)])
                .add_results(&[ranked(&[v, h], f32_type)])
                .build()
                .ok()?;
            let dq = insert(dq)?;
            let op = OperationBuilder::new("onnx.Gather", location)
                .add_operands(&[dq, ids])
                .add_attributes(&[int("axis", 0)])
                .add_results(&[result_ty])
                .build()
                .ok()?;
            insert(op)?
        };
        let result = if half {
            let to = onnx_ir::data_type_code(elem)?;
            let cast = OperationBuilder::new("onnx.Cast", location)
                .add_operands(&[result])
                .add_attributes(&[int("to", to)])
                .add_results(&[original_ty])
                .build()
                .ok()?;
            insert(cast)?
        } else {
            result
        };
        let old = ir::result_at(g, 0)?;
        unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), result.to_raw()) };
        unsafe { sys::mlirOperationDestroy(g.to_raw()) };
        erase_unused_weight(table);
        Some(())
    }
}

/// Erases the weight op defining `value` when nothing uses it any more
/// (the transpose the quantization read through), then its operands'.
fn erase_unused_weight(value: Value<'_, '_>) {
    let Some(def) = ir::defining_op(value) else { return };
    if !onnx_ir::is_weight_op(&op_name(def)) || ir::has_uses(value) {
        return;
    }
    let operands: Vec<Value> = def.operands().collect();
    unsafe { sys::mlirOperationDestroy(def.to_raw()) };
    for operand in operands {
        erase_unused_weight(operand);
    }
}
