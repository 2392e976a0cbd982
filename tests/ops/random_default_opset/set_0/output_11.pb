	B
isfinite_2J