B
linalg_detJ&Ï¯AG7À