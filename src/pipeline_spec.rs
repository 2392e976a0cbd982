//! The conversion pipeline as data: what `aten-translate --to-onnx`, the
//! Python entry point, `--verify`'s bisection and the tests run, built from
//! typed fields (opset, decompositions, target, extraction, half precision,
//! weight quantization, the optimizer stages) and rendered to the textual
//! pass pipeline in one place ([`PipelineSpec::render`]). `aten-opt
//! --pass-pipeline` keeps taking any text; this is how the tools build
//! theirs (docs/passes.md lists the passes).

use crate::translate::QuantizeWeights;
use aten2onnx_passes::optimizer::{extract_ilp::Extractor, rules::Target};

/// What the pipeline starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// An aten-dialect module (a `.pt2` or an aten `.mlir`): lowered first.
    #[default]
    Aten,
    /// An onnx-dialect module (an imported `.onnx`): optimized only.
    Onnx,
}

/// A conversion pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineSpec {
    pub source: Source,
    /// The target opset (lowering and decompositions).
    pub opset: u32,
    /// aten ops decomposed although they have a rule (`--decompose`).
    pub decompose: Vec<String>,
    /// `onnx-eqsat{target=...}`.
    pub target: Target,
    /// `onnx-eqsat{extract=...}`.
    pub extract: Extractor,
    /// `onnx-eqsat` runs (the optimizer's rewrite rules).
    pub eqsat: bool,
    /// More `onnx-eqsat` options (`iterations=0`, `rules=a/b,c/d`: the
    /// verifier's bisection), before the others.
    pub eqsat_options: Vec<String>,
    /// `onnx-fuse-weights` runs (QKV packing and other weight fusions).
    pub fuse_weights: bool,
    /// `onnx-flatten-tokens` runs.
    pub flatten_tokens: bool,
    /// Half-precision ops keep their types (`--half-precision native`): no
    /// `onnx-widen-half`.
    pub native_half: bool,
    /// `onnx-quantize-weights` after the weight fusions (`--quantize-weights`).
    pub quantize_weights: Option<QuantizeWeights>,
}

impl PipelineSpec {
    /// The main job's pipeline at `opset`, every stage on, default options.
    pub fn new(opset: u32) -> PipelineSpec {
        PipelineSpec {
            source: Source::Aten,
            opset,
            decompose: Vec::new(),
            target: Target::Standard,
            extract: Extractor::Greedy,
            eqsat: true,
            eqsat_options: Vec::new(),
            fuse_weights: true,
            flatten_tokens: true,
            native_half: false,
            quantize_weights: None,
        }
    }

    /// The pipeline of an imported ONNX model (optimization only).
    pub fn onnx(opset: u32) -> PipelineSpec {
        PipelineSpec { source: Source::Onnx, ..PipelineSpec::new(opset) }
    }

    /// The pipeline a conversion with `options` runs on a `source` module
    /// of opset `opset`.
    pub fn for_conversion(options: &crate::translate::ConvertOptions, source: Source, opset: u32) -> PipelineSpec {
        PipelineSpec {
            source,
            decompose: options.decompose.clone(),
            target: options.target,
            extract: options.extract,
            native_half: options.native_half,
            quantize_weights: options.quantize_weights.clone(),
            ..PipelineSpec::new(opset)
        }
    }

    /// The `onnx-eqsat` pass with its options.
    fn eqsat_pass(&self) -> String {
        let mut options = self.eqsat_options.clone();
        if self.extract != Extractor::Greedy {
            options.push(format!("extract={}", self.extract.name()));
        }
        if self.target != Target::Standard {
            options.push(format!("target={}", self.target.name()));
        }
        if options.is_empty() {
            "onnx-eqsat".to_string()
        } else {
            format!("onnx-eqsat{{{}}}", options.join(" "))
        }
    }

    /// The textual pass pipeline.
    pub fn render(&self) -> String {
        let mut module_passes = Vec::new();
        let mut func_passes: Vec<String> = Vec::new();
        let push = |v: &mut Vec<String>, names: &[&str]| v.extend(names.iter().map(|s| s.to_string()));
        match self.source {
            Source::Aten => {
                module_passes.push("aten-remove-inplace".to_string());
                module_passes.push(if self.decompose.is_empty() {
                    format!("aten-decompose{{opset={}}}", self.opset)
                } else {
                    format!("aten-decompose{{ops={} opset={}}}", self.decompose.join(","), self.opset)
                });
                module_passes.push(format!("convert-aten-to-onnx{{opset={}}}", self.opset));
                push(&mut func_passes, &["onnx-fold-constants", "onnx-cse", "onnx-fold-constants", "dce"]);
                push(&mut func_passes, &["onnx-shape-inference"]);
            }
            Source::Onnx => {
                // Inference and folding twice: models without intermediate
                // types (torch.onnx's TorchScript exporter) get theirs from
                // the first inference, the second folding reads them
                // (`Gather(Shape(x), 3)` of a static head size), and the
                // second inference follows the constants.
                push(&mut func_passes, &["onnx-fold-constants", "onnx-cse", "onnx-fold-constants", "dce"]);
                push(&mut func_passes, &["onnx-shape-inference", "onnx-fold-constants", "onnx-cse", "dce"]);
                push(&mut func_passes, &["onnx-shape-inference"]);
            }
        }
        if self.eqsat {
            func_passes.push(self.eqsat_pass());
        }
        // onnxruntime's x86 QDQ kernels take uint8 activations (an exact
        // retyping, after the rules that move and cancel Q/DQ pairs); the
        // standard target keeps symmetric int8 ones for the toolchains that
        // need them.
        func_passes.push(if self.target == Target::OnnxRuntime {
            "onnx-qdq-uint8".to_string()
        } else {
            "onnx-qdq-uint8{keep-symmetric=1}".to_string()
        });
        if self.fuse_weights {
            func_passes.push("onnx-fuse-weights".to_string());
        }
        // After the weight fusions (a fused QKV weight quantizes as one) and
        // after onnx-widen-half: a float16 / bfloat16 model's products then
        // run in float32 on `Cast(weight)`, and the half weight quantizes
        // like the float32 one it is cast to.
        let quantize = self.quantize_weights.as_ref().filter(|_| self.fuse_weights || self.eqsat);
        if self.flatten_tokens {
            func_passes.push("onnx-flatten-tokens".to_string());
        }
        if self.source == Source::Aten {
            // Type legalization (no rewrite rules): every variant keeps it.
            if !self.native_half {
                func_passes.push("onnx-widen-half".to_string());
            }
            func_passes.extend(quantize.map(|q| q.pass(self.target)));
            push(&mut func_passes, &["onnx-widen-ints", "onnx-residual-sum", "onnx-cse"]);
        } else {
            func_passes.extend(quantize.map(|q| q.pass(self.target)));
            func_passes.push("onnx-residual-sum".to_string());
        }
        module_passes.push(format!("func.func({})", func_passes.join(", ")));
        format!("builtin.module({})", module_passes.join(", "))
    }
}

/// The pipeline `--verify` bisects with: lowering with every replaced value
/// tagged by its node, no folding or merging (so tags survive).
pub fn lowering_trace_pipeline(opset: u32) -> String {
    format!(
        "builtin.module(aten-remove-inplace, aten-decompose{{opset={opset}}}, convert-aten-to-onnx{{opset={opset} trace=true}}, \
         func.func(dce))"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendered text of the main variants (what `--report` records and
    /// `aten-opt --pass-pipeline` takes).
    #[test]
    fn renders_the_pipelines_the_tools_ran() {
        let main = "builtin.module(aten-remove-inplace, aten-decompose{opset=23}, convert-aten-to-onnx{opset=23}, \
                    func.func(onnx-fold-constants, onnx-cse, onnx-fold-constants, dce, onnx-shape-inference, \
                    onnx-eqsat, onnx-qdq-uint8{keep-symmetric=1}, onnx-fuse-weights, onnx-flatten-tokens, \
                    onnx-widen-half, onnx-widen-ints, onnx-residual-sum, onnx-cse))";
        assert_eq!(PipelineSpec::new(23).render(), main);
        let ort = PipelineSpec {
            target: Target::OnnxRuntime,
            extract: Extractor::Ilp,
            decompose: vec!["aten.gelu.default".into(), "aten.silu.default".into()],
            native_half: true,
            quantize_weights: Some(QuantizeWeights::parse("int4:exclude=lm_head").unwrap()),
            ..PipelineSpec::new(21)
        };
        assert_eq!(
            ort.render(),
            "builtin.module(aten-remove-inplace, aten-decompose{ops=aten.gelu.default,aten.silu.default opset=21}, \
             convert-aten-to-onnx{opset=21}, func.func(onnx-fold-constants, onnx-cse, onnx-fold-constants, dce, \
             onnx-shape-inference, onnx-eqsat{extract=ilp target=onnxruntime}, onnx-qdq-uint8, onnx-fuse-weights, \
             onnx-flatten-tokens, \
             onnx-quantize-weights{bits=4 block=32 symmetric=1 format=matmulnbits accuracy-level=4 exclude=lm_head}, \
             onnx-widen-ints, onnx-residual-sum, onnx-cse))"
        );
        assert_eq!(
            PipelineSpec::onnx(23).render(),
            "builtin.module(func.func(onnx-fold-constants, onnx-cse, onnx-fold-constants, dce, onnx-shape-inference, \
             onnx-fold-constants, onnx-cse, dce, onnx-shape-inference, onnx-eqsat, onnx-qdq-uint8{keep-symmetric=1}, \
             onnx-fuse-weights, \
             onnx-flatten-tokens, onnx-residual-sum))"
        );
    }

    /// The verifier's bisection turns stages off and adds eqsat options.
    #[test]
    fn stages_turn_off() {
        let mut spec = PipelineSpec { target: Target::OnnxRuntime, ..PipelineSpec::new(23) };
        spec.flatten_tokens = false;
        assert!(spec.render().ends_with(
            "onnx-qdq-uint8, onnx-fuse-weights, onnx-widen-half, onnx-widen-ints, onnx-residual-sum, onnx-cse))"
        ));
        spec.fuse_weights = false;
        spec.eqsat_options = vec!["iterations=0".into()];
        assert!(spec.render().ends_with(
            "onnx-eqsat{iterations=0 target=onnxruntime}, onnx-qdq-uint8, onnx-widen-half, onnx-widen-ints, onnx-residual-sum, onnx-cse))"
        ));
        spec.eqsat = false;
        assert!(spec.render().ends_with(
            "onnx-shape-inference, onnx-qdq-uint8, onnx-widen-half, onnx-widen-ints, onnx-residual-sum, onnx-cse))"
        ));
    }
}
