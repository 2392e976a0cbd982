
Bfft_irfftn_2J(ij‘>¿Ö¾ñ„=æðu>,zÙ½dÓ¾,zÙ½æðu>ñ„=¿Ö¾