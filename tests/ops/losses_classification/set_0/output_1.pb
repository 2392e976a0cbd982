Bnll_loss_nd_1Jt
¡?