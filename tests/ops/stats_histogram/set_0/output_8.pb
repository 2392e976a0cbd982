B	getitem_4Jj'Š=k'
>;Ï>²ª•>