Brunning_meanJåÚ¿”Ì[=‚8¾‹ ¼p
¾»T½