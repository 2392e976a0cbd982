Bcross_entropy_loss_1Jt
¡?