Bbinary_cross_entropy_2J
ÁqA