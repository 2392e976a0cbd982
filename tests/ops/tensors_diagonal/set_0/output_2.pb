B
diagonal_2Jíc√?