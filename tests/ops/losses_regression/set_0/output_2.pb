Bsmooth_l1_lossJ
€?