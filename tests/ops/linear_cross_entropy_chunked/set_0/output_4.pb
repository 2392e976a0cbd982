B
getitem_12J=:@