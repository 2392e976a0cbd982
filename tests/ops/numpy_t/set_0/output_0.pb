Bnumpy_tJšs@b‡R?BÐÛ>Ìu
?Xai=/"å¿