B
getitem_11JF|H=