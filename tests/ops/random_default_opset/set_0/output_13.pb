	B
isfinite_4J