Bquantize_per_tensor_2J =³¡¼½û§á—»£°ò·¨—Ï
eßì31Ñº°