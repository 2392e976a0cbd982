Bcross_entropy_loss_3J­
@j	ê?8Üý?e2ß?