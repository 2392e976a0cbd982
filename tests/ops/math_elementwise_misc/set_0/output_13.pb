B
copysign_2J(*K@®¤@“f¿UÄ¹?t›pÀfü¯À\˜%@ô’-¿JG?ç}§À