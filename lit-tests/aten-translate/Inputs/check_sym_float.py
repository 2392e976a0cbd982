"""Runs the model converted from sym_float.mlir in onnxruntime for several
sizes n and checks each output's length against Python's own arithmetic."""
import math
import sys

import numpy as np
import onnxruntime as ort

session = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
names = [o.name for o in session.get_outputs()]
for n in [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 33, 100, 1001]:
    got = dict(zip(names, session.run(None, {"x": np.zeros((n, 4), np.float32)})))
    q = n / 3
    want = {
        "ceil_div3": math.ceil(q),
        "floor_div3": math.floor(q),
        "trunc_neg": n + math.trunc(0.5 - q),
        "int_sqrt": int(math.sqrt(n)),
        "floor_max": math.floor(max(q, 1.5)),
        "floordiv": int(q // 0.75),
        "lt_bool": int(q < 2.5),
        "floordiv_tenth": int(float(n) // 0.1),
        "mod_quarters": math.trunc((n % -0.75) * -4),
    }
    for name, length in want.items():
        value = got[name]
        if value.shape != (length,) or not np.array_equal(value, np.arange(length)):
            sys.exit(f"n={n} {name}: got shape {value.shape}, want ({length},)")
print("sym float sizes ok")
