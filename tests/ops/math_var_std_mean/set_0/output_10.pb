B
getitem_10JU`‡?