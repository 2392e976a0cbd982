Bas_strided_scatterJ0úÖ'?u¢¿]à>º¾y¿0)ÿ>A¤?q_z¾Rç@Ô3?¿‹ÁX¿Äe¿
l€¾