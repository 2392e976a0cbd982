B
special_i0JH‘CDั?อ5Dห็จCÿซฝ@\2Biภ?sE/(ข@ฬX@@งhEถ<B@f,BLฮAh๋?’ิF‘ฤ@