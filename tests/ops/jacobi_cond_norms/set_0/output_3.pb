Blinalg_cond_3J^Q
@“¿ú?