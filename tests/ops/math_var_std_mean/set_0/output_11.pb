B
getitem_11Jû/>