B
diagonal_4JG<·>0Æ¯¾×ÂÈ=