//! `onnx-widen-ints`: programs on int16 and bool tensors whose ONNX
//! ops (int16 Max/Clip, bool Where, ...) have no onnxruntime CPU kernel load
//! and give eager PyTorch's exact values (the pass computes those ops in a
//! wider type); `--pass-pipeline` without the pass shows why it is there.

use crate::export::python;
use std::process::Command;

const PROGRAM: &str = r#"
import sys, numpy as np, onnxruntime as ort, torch
torch.manual_seed(0)
class M(torch.nn.Module):
    def forward(self, a, b, m, t, f):
        return (torch.clamp(a, -100, 200), torch.maximum(a, b), torch.where(m, t, f),
                torch.where(m, a, b), torch.minimum(a, b.flip(0)))
args = (torch.randint(-300, 300, (6, 5), dtype=torch.int16), torch.randint(-300, 300, (6, 5), dtype=torch.int16),
        torch.rand(6, 5) > 0.5, torch.rand(6, 5) > 0.5, torch.rand(6, 5) > 0.5)
ep = torch.export.export(M(), args)
torch.export.save(ep, sys.argv[1] + "/ints.pt2")
np.savez(sys.argv[1] + "/ints.npz", *[a.numpy() for a in args], *[o.numpy() for o in M()(*args)])
"#;

const RUN: &str = r#"
import sys, numpy as np, onnxruntime as ort
io = np.load(sys.argv[2] + "/ints.npz")
s = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
outs = s.run(None, {i.name: io[f"arr_{k}"] for k, i in enumerate(s.get_inputs())})
bad = [k for k, o in enumerate(outs) if o.dtype != io[f"arr_{5 + k}"].dtype or not np.array_equal(o, io[f"arr_{5 + k}"])]
assert not bad, f"outputs {bad} differ from eager PyTorch"
"#;

#[test]
fn small_int_and_bool_programs_load_in_onnxruntime_and_match() {
    let Some(python) = python() else { return };
    let dir = crate::scratch_dir("int_kernels");
    let status = Command::new(&python).arg("-c").arg(PROGRAM).arg(&dir).status().expect("run python");
    assert!(status.success(), "capturing the program failed");
    let onnx = dir.join("ints.onnx");
    aten2onnx::translate::convert(dir.join("ints.pt2").to_str().unwrap(), &onnx, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(&python).arg("-c").arg(RUN).arg(&onnx).arg(&dir).output().expect("run python");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
