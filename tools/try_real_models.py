#!/usr/bin/env python3
"""Smoke run (prints results; not a test): models beyond the corpus, the way a
new user would try them. Each is built with random weights (torchvision
architectures, tiny Hugging Face configs; nothing is downloaded), captured
with torch.export, converted with target/release/aten-translate, and run in
onnxruntime against eager PyTorch at |diff| <= 1e-4 + 1e-4|exp|.

    cargo build --release --bins
    .venv/bin/python tools/try_real_models.py [NAME ...]
"""
import torch, torchvision, subprocess, numpy as np, onnxruntime as ort, warnings, sys, time
warnings.filterwarnings("ignore")
torch.manual_seed(0)
import os
OUT = "target/try"
os.makedirs(OUT, exist_ok=True)


def run(name, model, args, dyn=None, core=False):
    model.eval()
    try:
        ep = torch.export.export(model, args, dynamic_shapes=dyn, strict=False)
        if core: ep = ep.run_decompositions()
    except Exception as e:
        print(f"{name}: EXPORT FAILED {type(e).__name__}: {str(e)[:150]}"); return
    p=f"{OUT}/{name}.pt2"; torch.export.save(ep, p)
    t=time.time()
    r=subprocess.run(["target/release/aten-translate","--to-onnx",p,"-o",f"{OUT}/{name}.onnx"],capture_output=True,text=True)
    dt=time.time()-t
    if r.returncode:
        print(f"{name}: CONVERT FAILED\n{r.stderr[:900]}"); return
    with torch.no_grad(): exp = model(*args)
    if isinstance(exp,(tuple,list)): exp=exp[0]
    if hasattr(exp, "last_hidden_state"): exp = exp.last_hidden_state
    if hasattr(exp, "logits"): exp = exp.logits
    s=ort.InferenceSession(f"{OUT}/{name}.onnx", providers=["CPUExecutionProvider"])
    feeds={i.name: a.numpy() for i,a in zip(s.get_inputs(), args)}
    got=s.run(None, feeds)[0]
    err=np.abs(got-exp.numpy()).max()
    ok = np.all(np.abs(got-exp.numpy()) <= 1e-4 + 1e-4*np.abs(exp.numpy()))
    print(f"{name}: convert {dt:.2f}s, max err {err:.2e} {'OK' if ok else 'MISMATCH'}")
which = sys.argv[1:]
import transformers as tf
tf.logging.set_verbosity_error()
x=torch.randn(1,3,64,64)
models = {
 "mobilenet_v3_small": lambda: run("mobilenet_v3_small", torchvision.models.mobilenet_v3_small(), (x,)),
 "efficientnet_b0": lambda: run("efficientnet_b0", torchvision.models.efficientnet_b0(), (x,)),
 "convnext_tiny": lambda: run("convnext_tiny", torchvision.models.convnext_tiny(), (x,)),
 "shufflenet": lambda: run("shufflenet", torchvision.models.shufflenet_v2_x0_5(), (x,)),
 "densenet121": lambda: run("densenet121", torchvision.models.densenet121(), (x,)),
 "resnet18_core": lambda: run("resnet18_core", torchvision.models.resnet18(), (x,), core=True),
 "squeezenet": lambda: run("squeezenet", torchvision.models.squeezenet1_1(), (x,)),
}
def hf(name, cls, cfg, args):
    m=cls(cfg)
    class W(torch.nn.Module):
        def __init__(s): super().__init__(); s.m=m
        def forward(s, *a): 
            o=s.m(*a)
            return o.logits if hasattr(o,"logits") else o.last_hidden_state
    run(name, W(), args)
ids=torch.randint(0,100,(2,8))
models.update({
 "distilbert": lambda: hf("distilbert", tf.DistilBertModel, tf.DistilBertConfig(vocab_size=100, dim=32, n_layers=2, n_heads=2, hidden_dim=64, max_position_embeddings=64), (ids,)),
 "qwen2": lambda: hf("qwen2", tf.Qwen2ForCausalLM, tf.Qwen2Config(vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64, use_cache=False), (ids,)),
 "t5_encoder": lambda: hf("t5_encoder", tf.T5EncoderModel, tf.T5Config(vocab_size=100, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4), (ids,)),
 "roberta": lambda: hf("roberta", tf.RobertaModel, tf.RobertaConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, max_position_embeddings=64), (ids,)),
 "mistral": lambda: hf("mistral", tf.MistralForCausalLM, tf.MistralConfig(vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64, use_cache=False), (ids,)),
 "phi3": lambda: hf("phi3", tf.Phi3ForCausalLM, tf.Phi3Config(vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64, use_cache=False, pad_token_id=0), (ids,)),
})
for k in (which or models):
    try: models[k]()
    except Exception as e: print(k, "ERROR", type(e).__name__, str(e)[:200])
