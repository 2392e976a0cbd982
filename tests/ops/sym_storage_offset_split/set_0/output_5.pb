B
getitem_15JFÀ‘óö¿E>¿ì=1>Lz¿