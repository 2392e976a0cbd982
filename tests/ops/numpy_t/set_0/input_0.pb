BxJšs@BÐÛ>Xai=b‡R?Ìu
?/"å¿