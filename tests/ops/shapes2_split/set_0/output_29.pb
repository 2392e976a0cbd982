B
getitem_29Jüÿÿÿÿÿÿÿ