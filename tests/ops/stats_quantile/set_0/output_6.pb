B
quantile_4JWJ½½ÿ/>ˆ±B¿¥°?