	B
isfinite_1J