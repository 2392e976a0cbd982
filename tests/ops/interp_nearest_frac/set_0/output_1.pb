Bupsample_nearest2d_1J0˜‰?ªQÂ?1Â¾ºĞ ¿Qp¿†
®?æ[˜¿â¾MC·¿G‰?ZM¿6q˜=