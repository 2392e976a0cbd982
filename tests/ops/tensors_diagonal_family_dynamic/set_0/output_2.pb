B
diagonal_3J dA¿ì³–¿)NÚ>QZl?—ñ]¼6±§¿