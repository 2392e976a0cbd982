#!/usr/bin/env python3
"""ORT latency of several ONNX files of one bench model, interleaved in one
process (each round runs every session 3 times in a random order), so that
the load of a shared machine hits them alike: prints the medians and the
ratios of the first file to the others, with ORT_ENABLE_ALL and
ORT_DISABLE_ALL, one intra-op thread.

    .venv/bin/python tools/bench/bench_interleaved.py bert 300 target/bench/bert.aten2onnx.onnx \
        target/bench/bert.dynamo.onnx target/bench/bert.yobx.onnx

(inputs: target/bench/<model>.io.npz, written by tools/bench/bench_convert.py)
"""
import sys, time, statistics, numpy as np, onnxruntime as ort, random
def sess(p, opt):
    o=ort.SessionOptions(); o.intra_op_num_threads=1; o.inter_op_num_threads=1
    o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL if opt else ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(p,o,providers=['CPUExecutionProvider'])
name=sys.argv[1]; rounds=int(sys.argv[2]); paths=sys.argv[3:]
io=np.load(f'target/bench/{name}.io.npz')
ins=[io[k] for k in sorted(k for k in io.files if k.startswith('s0_in'))]
cfg=[(p,opt) for opt in (True,False) for p in paths]
ss=[sess(p,o) for p,o in cfg]
feeds=[{i.name:a for i,a in zip(s.get_inputs(),ins)} for s in ss]
for s,f in zip(ss,feeds):
    for _ in range(10): s.run(None,f)
times=[[] for _ in ss]
order=list(range(len(ss)))
for r in range(rounds):
    random.shuffle(order)
    for k in order:
        s,f=ss[k],feeds[k]
        for _ in range(3):
            t=time.perf_counter(); s.run(None,f); times[k].append((time.perf_counter()-t)*1000)
med=[statistics.median(t) for t in times]
n=len(paths)
for j,opt in enumerate(('opt','noopt')):
    m=med[j*n:(j+1)*n]
    print(opt, ' '.join(f'{p.split("/")[-1]}={x:.3f}' for p,x in zip(paths,m)), ' ours/peer:', ' '.join(f'{m[0]/x:.2f}' for x in m))
