Bpoisson_nll_loss_5J0Ê.
@Yðœ@ï{?2bS@›îo?_.Ü?nÈ!?0$@ ±©?ª@ätA  ã?