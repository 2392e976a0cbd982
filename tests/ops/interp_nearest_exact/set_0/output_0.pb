
B_upsample_nearest_exact1dJPE‡¿E‡¿½º]¿½º]¿r—=r—=j’¿j’¿_‚?_‚?ÜU¿ÜU¿&[Ì¿&[Ì¿R¿R¿Ëù5¿Ëù5¿·¿·¿