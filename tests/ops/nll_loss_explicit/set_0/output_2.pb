B
nll_loss2dJ.-JA