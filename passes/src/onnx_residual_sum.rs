//! `onnx-residual-sum`: a float32 / float16 residual `Add` of rank 3 or more
//! feeding a `LayerNormalization` is written as `Sum` (the same values: `Sum`
//! of two tensors broadcasts as `Add` does).
//!
//! Why: onnxruntime's load-time `SkipLayerNormFusion` turns `Add ->
//! LayerNormalization` over 3-D tensors into `com.microsoft.SkipLayerNormalization`,
//! whose CPU kernel is slower than the two ops it replaces in onnxruntime
//! 1.32: 0.53 ms against 0.09 ms at 1x128x768 (1 thread; 2 threads 0.28
//! against 0.05; 5-7x at every size measured but single rows). The fusion
//! matches `Add` only. The transformers it hits are the ones
//! `onnx-flatten-tokens` leaves 3-D (its 2-D form is not fused either): a
//! PT2E-quantized BERT-size encoder ran 17.8 ms with the fusion and 13.5 ms
//! without (docs/quantization.md). The optimizer's own
//! `ort_normalization` family writes the contrib op only where it pays.

use crate::{ir, lowering::builder::Builder, onnx_ir, Factory, PassId, PassInfo, ProjectPass};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use mlir_sys as sys;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-residual-sum",
    summary: "Write a 3-D+ Add feeding LayerNormalization as Sum (the same values), which onnxruntime's slower SkipLayerNormalization fusion does not match",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: ResidualSum, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct ResidualSum;

impl ProjectPass for ResidualSum {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        if ir::op_name(op) != "func.func" {
            return Ok(());
        }
        let mut adds = Vec::new();
        ir::walk(op, &mut |o| {
            if ir::op_name(o) != "onnx.LayerNormalization" {
                return;
            }
            let Some(add) = ir::operand_at(o, 0).and_then(ir::defining_op) else { return };
            let Some(result) = ir::result_at(add, 0) else { return };
            let rank = crate::types::rank(result.r#type());
            // float32 and float16 only: onnxruntime's CPU Sum has no
            // bfloat16 kernel (nor does the fusion run on other types).
            let element = crate::types::element_type(result.r#type());
            let context_ref = o.context(); // alive while `context` is used
            let context = unsafe { context_ref.to_ref() };
            let typed = element
                .is_some_and(|e| e == melior::ir::Type::float32(context) || e == melior::ir::Type::float16(context));
            if ir::op_name(add) == "onnx.Add" && typed && rank.is_some_and(|r| r >= 3) && !adds.contains(&add) {
                adds.push(add);
            }
        });
        let opset = onnx_ir::opset_of(op);
        for add in adds {
            if let Err(message) = rewrite(add, opset) {
                crate::diag::op_error(add, &format!("onnx-residual-sum: {message}"));
                return Err(());
            }
        }
        Ok(())
    }
}

fn rewrite(add: OperationRef<'_, '_>, opset: u32) -> Result<(), String> {
    let context_ref = add.context(); // alive while `context` is used
    let context = unsafe { context_ref.to_ref() };
    let operands: Vec<_> = (0..add.operand_count()).filter_map(|i| ir::operand_at(add, i)).collect();
    let result = ir::result_at(add, 0).ok_or("an Add without a result")?;
    let b = Builder::new(context, add, opset)?; // at the Add's location: the node keeps its name
    let sum = b.onnx().sum(&operands).typed(result.r#type())?;
    unsafe {
        sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), sum.to_raw());
        sys::mlirOperationDestroy(add.to_raw());
    }
    Ok(())
}
