//! Models captured in half precision (`model.half()`, `.to(torch.bfloat16)`):
//! float16 converts and matches libtorch in onnxruntime within the float16
//! tolerance of `verify::tolerance`; bfloat16 converts to a model that
//! onnx.checker accepts (onnxruntime's CPU provider has almost no bfloat16
//! kernels, so it is not run).

use crate::export::python;
use aten2onnx::verify::{verify, VerifyOptions};
use std::process::Command;

const CAPTURE: &str = r#"
import sys, torch, torch.nn as nn
from torch.export import Dim
torch.manual_seed(0)

class Block(nn.Module):
    """A pre-norm transformer block: the ops of a small LLM layer."""
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm2 = nn.RMSNorm(d)
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda y: y.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        a = nn.functional.scaled_dot_product_attention(split(q), split(k), split(v), is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        h = self.up(self.norm2(x))
        return x + self.down(nn.functional.gelu(h) * torch.sigmoid(h)), x.softmax(-1)

out = sys.argv[1]
for name, dtype in [("f16", torch.float16), ("bf16", torch.bfloat16)]:
    m = Block().eval().to(dtype)
    x = torch.randn(2, 5, 32).to(dtype)
    ep = torch.export.export(m, (x,), dynamic_shapes={"x": {0: Dim("batch"), 1: Dim("seq")}})
    torch.export.save(ep, f"{out}/block_{name}.pt2")
"#;

#[test]
fn half_precision_models_convert_and_match() {
    let Some(python) = python() else { return };
    let dir = crate::scratch_dir("half");
    let status = Command::new(&python).arg("-c").arg(CAPTURE).arg(&dir).status().expect("run python");
    assert!(status.success(), "capturing the half-precision blocks failed");

    let f16 = dir.join("block_f16.pt2");
    let report = verify(f16.to_str().unwrap(), &dir.join("block_f16.onnx"), &VerifyOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.ok(), "float16 block differs from libtorch:\n{}", report.render());

    let bf16 = dir.join("block_bf16.pt2");
    let onnx = dir.join("block_bf16.onnx");
    aten2onnx::translate::convert(bf16.to_str().unwrap(), &onnx, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let check = Command::new(&python)
        .arg("-c")
        .arg(
            "import sys, onnx; m = onnx.load(sys.argv[1]); onnx.checker.check_model(m, full_check=True); \
             assert m.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.BFLOAT16",
        )
        .arg(&onnx)
        .status()
        .expect("run python");
    assert!(check.success(), "onnx.checker rejects the bfloat16 model");
}
