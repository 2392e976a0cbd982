	B
isfinite_5J