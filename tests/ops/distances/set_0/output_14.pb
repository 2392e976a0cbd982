Bpairwise_distance_2J
‡d@x;é?÷¡à?‡d@p;é?ç¡à?