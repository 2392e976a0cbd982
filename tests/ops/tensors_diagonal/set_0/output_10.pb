Bdiagonal_scatterJ0`’Õ¾à–ë?{ýå¿YñÅ?	uu¿ö
%?lO­¿}˜‚=’cÃ?ƒ>?àb€¿þáž?