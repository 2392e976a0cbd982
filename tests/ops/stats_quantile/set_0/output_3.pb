B
quantile_2JM²¤¾W/¿&æB¿€Û>