B
mse_loss_1Jú§A