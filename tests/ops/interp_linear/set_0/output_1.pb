Bupsample_linear1d_1J
+¿;‰?