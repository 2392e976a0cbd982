	B
isfinite_3J