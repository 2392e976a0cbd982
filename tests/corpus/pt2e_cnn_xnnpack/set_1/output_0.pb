
Bdequantize_per_tensor_6Jxg›0¾¦a\¾‰è;mIM=f¾—®”¾~fß½ğ–ı½mIÍ¼?w=\,;¾šòf¾(Õ„¼û/=PĞ¾¿©‘¾¼R¾¼R¾6Á¼aí“=¥6¾~f_¾6ÁºJ)=Ío¾o³—¾uè½PĞ¾Î\Y¼SS=