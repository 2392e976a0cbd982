B
getitem_12J์อ	>