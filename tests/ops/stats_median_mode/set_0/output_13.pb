B
getitem_10JdÙ¿:Tæ¿q5Ï>