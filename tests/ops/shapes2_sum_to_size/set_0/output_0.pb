Bsum_to_sizeJM$@U
ÀÂŠ?