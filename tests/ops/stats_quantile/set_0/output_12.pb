B
quantile_8JWJ½½ÿ/>ˆ±B¿¥°?