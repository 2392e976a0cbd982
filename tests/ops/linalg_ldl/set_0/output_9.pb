Blinalg_ldl_solve_1J,¿v‹¾()¬¾
áN?MÈ<¿