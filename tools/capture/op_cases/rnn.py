# Recurrent layers: nn.LSTM / nn.GRU / nn.RNN (tanh and relu) and their cells,
# lowered to ONNX LSTM / GRU / RNN (passes/lowering/src/rules/helpers/rnn_common.rs).
# Imported by tools/capture/capture_op_tests.py; `case`, `rn`, ... come from
# op_case_lib. Dynamic batch (torch.export specializes the sequence length of
# nn.LSTM/GRU/RNN), so the two input sets differ.

from __future__ import annotations

import torch
import torch.nn as nn

from op_case_lib import case, rn


BATCH = ("batch", 2, 3)


def _init_rnns(m):
    torch.manual_seed(11)
    m.lstm = nn.LSTM(6, 8, num_layers=2, batch_first=True, bidirectional=True)
    m.gru = nn.GRU(16, 5)
    m.rnn_tanh = nn.RNN(5, 4, num_layers=2, nonlinearity="tanh", bidirectional=True)
    m.rnn_relu = nn.RNN(8, 3, nonlinearity="relu", bias=False)


@case("rnn_layers", ["lstm.input", "gru.input", "rnn_tanh.input", "rnn_relu.input"],
      lambda g, d: (rn(g, d["batch"], 5, 6), rn(g, 4, d["batch"], 8), rn(g, 4, d["batch"], 8)),
      init=_init_rnns, dynamic={"x": {0: BATCH}, "h0": {1: BATCH}, "c0": {1: BATCH}})
def _(self, x, h0, c0):
    """A 2-layer bidirectional batch-first LSTM with given (h0, c0), a GRU on its output (time-major, zero
    initial state), a 2-layer bidirectional tanh RNN and a bias-free relu RNN; every output and final state."""
    y, (hn, cn) = self.lstm(x, (h0, c0))
    z, gh = self.gru(y.transpose(0, 1))
    r, rh = self.rnn_tanh(z)
    q, qh = self.rnn_relu(r)
    return y, hn, cn, z, gh, r, rh, q, qh


def _init_cells(m):
    torch.manual_seed(12)
    m.lstm = nn.LSTMCell(6, 4)
    m.gru = nn.GRUCell(4, 5, bias=False)
    m.rnn_tanh = nn.RNNCell(5, 3)
    m.rnn_relu = nn.RNNCell(3, 3, nonlinearity="relu")


@case("rnn_cells", ["lstm_cell.default", "gru_cell.default", "rnn_tanh_cell.default", "rnn_relu_cell.default"],
      lambda g, d: (rn(g, d["batch"], 6), rn(g, d["batch"], 4), rn(g, d["batch"], 4)),
      init=_init_cells, dynamic={"x": {0: BATCH}, "h": {0: BATCH}, "c": {0: BATCH}})
def _(self, x, h, c):
    """Two steps of an LSTMCell with a given state, then a bias-free GRUCell, tanh and relu RNNCells with
    zero initial states (batched)."""
    h1, c1 = self.lstm(x, (h, c))
    h2, c2 = self.lstm(x * 0.5, (h1, c1))
    g = self.gru(h2)
    t = self.rnn_tanh(g)
    return h2, c2, g, t, self.rnn_relu(t)
