B
copysign_1J(*KÀ®¤À“f¿UÄ¹¿t›pÀfü¯À\˜%Àô’-¿JG¿ç}§À