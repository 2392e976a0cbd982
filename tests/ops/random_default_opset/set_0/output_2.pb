	BisfiniteJ
