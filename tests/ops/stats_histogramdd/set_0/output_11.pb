B
getitem_15JU`ÀŽ~¿2„p?¾á@